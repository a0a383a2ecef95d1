package dev.cascade.core.internal.accelsim;

import dev.cascade.accelsim.stats.BuildString;
import dev.cascade.accelsim.stats.KernelStats;
import dev.cascade.accelsim.stats.KernelStatsParser;
import dev.cascade.accelsim.stats.LogOutcome;
import dev.cascade.accelsim.stats.StatsListener;
import dev.cascade.core.spi.FinishedKernel;
import dev.cascade.core.spi.LogEnd;
import dev.cascade.core.spi.OutputListener;
import dev.cascade.core.spi.OutputParser;
import dev.cascade.core.spi.Simulator;
import java.util.Map;
import java.util.Objects;

/**
 * Accel-Sim as a {@link Simulator}: cascade-accelsim's streaming stats parser, its kernels handed
 * on as they are (no copy of a block's ~1,500 values), its build strings as {@code Accel-Sim} and
 * {@code GPGPU-Sim}.
 */
public final class AccelSimSimulator implements Simulator {

  /** The simulator's name. */
  public static final String NAME = "accel-sim";

  /** For {@link java.util.ServiceLoader}. */
  public AccelSimSimulator() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public OutputParser parser(OutputListener listener) {
    Objects.requireNonNull(listener, "listener");
    KernelStatsParser parser = new KernelStatsParser(new Listener(listener));
    return new OutputParser() {
      @Override
      public void feed(byte[] bytes, int offset, int length) {
        parser.feed(bytes, offset, length);
      }

      @Override
      public LogEnd finish() {
        return toEnd(parser.finish());
      }

      @Override
      public LogEnd end() {
        return toEnd(parser.outcome());
      }
    };
  }

  private static LogEnd toEnd(LogOutcome outcome) {
    return new LogEnd(LogEnd.State.valueOf(outcome.state().name()), outcome.reason());
  }

  /** The parser's events, in the simulator-neutral words of {@link OutputListener}. */
  private record Listener(OutputListener listener) implements StatsListener {
    @Override
    public void onBuild(BuildString build) {
      listener.onBuild(
          build.component() == BuildString.Component.ACCEL_SIM ? "Accel-Sim" : "GPGPU-Sim",
          build.build(),
          build.version());
    }

    @Override
    public void onKernelLaunched(String name, long uid) {
      listener.onKernelLaunched(name, uid);
    }

    @Override
    public void onKernelFinished(KernelStats stats) {
      listener.onKernelFinished(new Kernel(stats));
    }

    @Override
    public void onEnd(LogOutcome outcome) {
      listener.onEnd(toEnd(outcome));
    }
  }

  /** A statistics block as a {@link FinishedKernel}; its values visited without boxing. */
  private record Kernel(KernelStats stats) implements FinishedKernel {
    @Override
    public String name() {
      return stats.name();
    }

    @Override
    public long uid() {
      return stats.uid();
    }

    @Override
    public int instance() {
      return stats.instance();
    }

    @Override
    public long cycles() {
      return stats.cycles();
    }

    @Override
    public long instructions() {
      return stats.instructions();
    }

    @Override
    public double ipc() {
      return stats.ipc();
    }

    @Override
    public Map<String, Number> values() {
      return stats.stats();
    }

    @Override
    public void forEachValue(ValueVisitor visitor) {
      stats.forEachStat(
          new KernelStats.StatVisitor() {
            @Override
            public void integer(String key, long value) {
              visitor.integer(key, value);
            }

            @Override
            public void decimal(String key, double value) {
              visitor.decimal(key, value);
            }
          });
    }
  }
}
