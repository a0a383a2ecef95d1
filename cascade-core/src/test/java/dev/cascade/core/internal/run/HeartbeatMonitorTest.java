package dev.cascade.core.internal.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

final class HeartbeatMonitorTest {

  @Test
  void aDataDirThatTakesNoWrites_isLoggedOnceWithoutAStackTrace_andItsEndOnce() {
    AtomicInteger passes = new AtomicInteger();
    Runnable check =
        () -> {
          if (passes.incrementAndGet() <= 20) {
            throw new CascadeException(
                ErrorCode.UNAVAILABLE,
                "Cascade cannot write its data right now (the disk is full)");
          }
        };
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try (HeartbeatMonitor monitor = new HeartbeatMonitor(check, Duration.ofMillis(5))) {
      assertThat(monitor).isNotNull(); // it runs the check until closed
      await().atMost(Duration.ofSeconds(20)).until(() -> passes.get() > 25);
    } finally {
      System.setErr(err);
    }

    String log = captured.toString(StandardCharsets.UTF_8);
    assertThat(log.split("the heartbeat check cannot write", -1)).as(log).hasSize(2);
    assertThat(log).contains("the disk is full").contains("works again").doesNotContain("\tat ");
  }
}
