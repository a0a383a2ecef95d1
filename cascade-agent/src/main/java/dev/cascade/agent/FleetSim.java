package dev.cascade.agent;

import dev.cascade.accelsim.stats.KernelStatsParser;
import dev.cascade.accelsim.stats.LogOutcome;
import dev.cascade.accelsim.stats.StatsListener;
import dev.cascade.agent.emulator.Emulation;
import dev.cascade.agent.emulator.Emulator;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * One member of an {@link EmulatorFleet}: its emulator, its chunks and its reports, driven by the
 * fleet's loop (the single agent's side of DESIGN.md section 7, without a spool).
 */
final class FleetSim {
  private final EmulatorFleet fleet;
  private final FleetLoop loop;
  private final EmulatorFleet.Member member;
  private final Emulation emulation;
  private final double speed;
  private final String base;
  private final String authorization;
  private final ChunkCutter cutter;
  private final KernelStatsParser parser = new KernelStatsParser(new StatsListener() {});
  private final Deque<Long> unsent = new ArrayDeque<>();
  private final Map<Long, byte[]> held = new HashMap<>();
  private final Backoff chunkBackoff;
  private final Backoff finalBackoff;
  private long produced;
  private long started;
  private long lastContact;
  private Emulation.Piece waiting;
  private boolean emulating = true;
  private boolean sending;
  private boolean beating;
  private boolean reporting;
  private boolean finished;
  private boolean cancelled;
  private int exitCode;

  FleetSim(
      EmulatorFleet fleet,
      FleetLoop loop,
      EmulatorFleet.Member member,
      Emulation emulation,
      double speed) {
    this.fleet = fleet;
    this.loop = loop;
    this.member = member;
    this.emulation = emulation;
    this.speed = speed;
    this.base = AppClient.simBase(fleet.mainUrl, member.simId());
    this.authorization = "Bearer " + member.token();
    this.cutter = new ChunkCutter(fleet.chunkBytes, fleet.chunkAge.toNanos());
    this.chunkBackoff = new Backoff(fleet.backoffInitial, fleet.backoffMax, true);
    this.finalBackoff = new Backoff(fleet.backoffInitial, fleet.backoffMax, true);
  }

  void start(long heartbeatDelayNanos) {
    started = System.nanoTime();
    lastContact = started;
    step();
    loop.schedule(this::heartbeat, heartbeatDelayNanos);
  }

  /** Writes every piece that is due, then waits for the next one. */
  void step() {
    if (!emulating) {
      return;
    }
    long now = System.nanoTime();
    while (true) {
      Emulation.Piece piece = waiting != null ? waiting : emulation.next();
      waiting = null;
      if (piece == null) {
        exitCode = emulation.exitCode();
        endEmulation();
        return;
      }
      long due = started + Emulator.dueNanos(piece.cycle(), speed);
      if (due > now) {
        waiting = piece;
        loop.schedule(this::step, due - now);
        return;
      }
      cutter.write(piece.bytes(), 0, piece.bytes().length, now, this::emit);
    }
  }

  boolean isFinished() {
    return finished;
  }

  void tick(long now) {
    if (emulating) {
      cutter.tick(now, this::emit);
    }
    if (!finished && now - lastContact > fleet.giveUpAfter.toNanos()) {
      finish("gave up: no answer from the app for " + fleet.giveUpAfter.toSeconds() + " s", false);
    }
  }

  private void emit(byte[] chunk) {
    long seq = produced++;
    held.put(seq, chunk);
    unsent.add(seq);
    parser.feed(chunk);
    pump();
  }

  private void endEmulation() {
    emulating = false;
    cutter.flush(this::emit);
    parser.finish();
    pump();
    maybeReport();
  }

  /** Sends the lowest unsent chunk, one at a time. */
  private void pump() {
    if (sending || unsent.isEmpty() || finished) {
      return;
    }
    long seq = unsent.peekFirst();
    byte[] bytes = held.get(seq);
    sending = true;
    request(
        "PUT",
        "/chunks/" + seq,
        "application/octet-stream",
        HttpRequest.BodyPublishers.ofByteArray(bytes),
        (sent, response, error) -> chunkAnswered(seq, bytes, response, error));
  }

  private void chunkAnswered(
      long seq, byte[] bytes, HttpResponse<String> response, Throwable error) {
    sending = false;
    if (finished) {
      return;
    }
    try {
      if (error != null) {
        throw AppClient.unreachable("chunk " + seq, error);
      }
      AppClient.classify(response.statusCode(), response.body(), "chunk " + seq);
    } catch (AppClient.AppException e) {
      if (!e.retryable()) {
        finish("refused: " + e.getMessage(), false);
        return;
      }
      loop.retry(member.simId(), e.getMessage());
      sending = true;
      loop.schedule(
          () -> {
            sending = false;
            pump();
          },
          chunkBackoff.next().toNanos());
      return;
    }
    lastContact = System.nanoTime();
    chunkBackoff.reset();
    unsent.pollFirst();
    held.remove(seq);
    loop.chunks++;
    loop.bytes += bytes.length;
    fleet.accepted.accepted(member, seq, bytes);
    pump();
    maybeReport();
  }

  private void heartbeat() {
    if (finished || reporting) {
      return;
    }
    // One at a time, as the agent's heartbeat thread does: a slow app is not sent a backlog.
    if (!beating) {
      beating = true;
      send(AgentJson.heartbeat("running", null, null, produced), false);
    }
    loop.schedule(this::heartbeat, fleet.heartbeatInterval.toNanos());
  }

  private void maybeReport() {
    if (finished || reporting || emulating || sending || !unsent.isEmpty()) {
      return;
    }
    reporting = true;
    sendFinal();
  }

  private void sendFinal() {
    if (finished) {
      return;
    }
    String json;
    if (cancelled) {
      json = AgentJson.heartbeat("failed", "cancelled", null, produced);
    } else {
      LogOutcome outcome = parser.outcome();
      if (outcome.failed()) {
        json = AgentJson.heartbeat("failed", outcome.reason(), exitCode, produced);
      } else if (exitCode != 0) {
        json =
            AgentJson.heartbeat(
                "failed", "the simulator exited with code " + exitCode, exitCode, produced);
      } else {
        json = AgentJson.heartbeat("succeeded", null, exitCode, produced);
      }
    }
    send(json, true);
  }

  private void send(String json, boolean last) {
    request(
        "POST",
        "/heartbeat",
        "application/json",
        HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8),
        (sent, response, error) -> heartbeatAnswered(last, sent, response, error));
  }

  /** Sends one request to the sim's endpoints; {@code answered} runs on the loop. */
  private void request(
      String method,
      String path,
      String contentType,
      HttpRequest.BodyPublisher body,
      FleetLoop.Answer answered) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(fleet.requestTimeout)
            .header("Authorization", authorization)
            .header("Content-Type", contentType)
            .method(method, body)
            .build();
    loop.send(request, answered);
  }

  private void heartbeatAnswered(
      boolean last, long sent, HttpResponse<String> response, Throwable error) {
    if (!last) {
      beating = false;
    }
    if (finished) {
      return;
    }
    AgentJson.Reply reply;
    try {
      if (error != null) {
        throw AppClient.unreachable("heartbeat", error);
      }
      AppClient.classify(response.statusCode(), response.body(), "heartbeat");
      reply = AgentJson.reply(response.body());
    } catch (AppClient.AppException | IllegalArgumentException e) {
      if (e instanceof AppClient.AppException app && !app.retryable()) {
        finish("refused: " + e.getMessage(), false);
        return;
      }
      if (last) {
        loop.retry(member.simId(), e.getMessage());
        loop.schedule(this::sendFinal, finalBackoff.next().toNanos());
      }
      return;
    }
    long now = System.nanoTime();
    loop.latency(now - sent);
    lastContact = now;
    if (reply.cancel()) {
      if (last) {
        loop.cancelled++;
        finish(null, true);
      } else if (!cancelled) {
        cancelled = true;
        emulating = false;
        waiting = null;
        cutter.flush(this::emit);
        maybeReport();
      }
      return;
    }
    if (!last) {
      return;
    }
    if (reply.missing().isEmpty()) {
      finalAccepted();
      return;
    }
    boolean resent = false;
    for (long seq : reply.missing()) {
      if (held.containsKey(seq)) {
        if (!unsent.contains(seq)) {
          unsent.add(seq);
        }
        resent = true;
      } else if (seq < produced) {
        loop.lostChunks++;
      }
    }
    if (!resent) {
      finish("the app lost chunks it had accepted: " + reply.missing(), false);
      return;
    }
    reporting = false;
    pump();
  }

  private void finalAccepted() {
    if (cancelled) {
      loop.cancelled++;
    } else if (parser.outcome().failed() || exitCode != 0) {
      loop.failed++;
    } else {
      loop.succeeded++;
    }
    finish(null, true);
  }

  private void finish(String problem, boolean counted) {
    if (finished) {
      return;
    }
    finished = true;
    emulating = false;
    held.clear();
    unsent.clear();
    if (!counted) {
      loop.unfinished++;
    }
    if (problem != null) {
      fleet.log.println("cascade emulate: sim " + member.simId() + ": " + problem);
    }
    loop.finished.release();
  }
}
