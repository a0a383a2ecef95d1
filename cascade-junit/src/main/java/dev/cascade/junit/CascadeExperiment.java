package dev.cascade.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against a Cascade: by default an embedded one, started in a
 * temporary data dir before the class's first test, shared by all of its tests (and its {@code
 * Nested} classes), and closed after the last, with its data dir deleted. Sims run the emulator as
 * fast as it can, locally.
 *
 * <p>Tests get the Cascade as a parameter or field of type {@link Experiment} (create runs, wait,
 * read results) or {@link dev.cascade.core.Cascade} (the whole embedded API):
 *
 * <pre>{@code
 * @CascadeExperiment(traces = "demo")
 * final class H200Test {
 *   @Test
 *   void everyReplicaFinishesAttention(Experiment experiment) {
 *     ExperimentRun run = experiment.run("demo", "SM90_H100:3", "SM90_H200:3");
 *     assertThat(run.config("SM90_H200").kernel("flash_fwd").cycles().n()).isEqualTo(3);
 *   }
 * }
 * }</pre>
 *
 * <p>Every setting can also come from a JUnit configuration parameter ({@code
 * junit-platform.properties}, or a system property such as {@code -Dcascade.server=...}), which
 * wins over the annotation: {@code cascade.launcher}, {@code cascade.accelsim}, {@code
 * cascade.server}, {@code cascade.token} and {@code cascade.timeout.seconds}. So the same test
 * class runs on the emulator on a laptop and on a real Accel-Sim in a nightly job.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(CascadeExtension.class)
public @interface CascadeExperiment {

  /**
   * The traces the embedded Cascade starts with, each ready before the first test: {@code "demo"}
   * (Cascade's demo trace: five kernels of one decoder layer's self-attention, {@code sm_90}, with
   * the sample {@code sample-llama-mlp} beside it), or the path of a trace folder ({@code
   * metadata.json} and {@code traces/kernelslist.g}), copied in with its folder name as its id.
   * Ignored with {@link #server()}, whose traces are its own.
   */
  String[] traces() default {"demo"};

  /**
   * The launcher that starts sims, by name: {@code local} (processes on this machine), {@code sail}
   * (with {@code cascade-sail} on the test class path). When it cannot be used, the class fails
   * with every launcher found and why; {@link EnabledIfLauncherAvailable} skips it instead.
   * Configuration parameter {@code cascade.launcher}.
   */
  String launcher() default "local";

  /**
   * A built Accel-Sim to run instead of the emulator: the folder holding {@code
   * gpu-simulator/bin/release/accel-sim.out}; its {@code tested-cfgs} become the GPU configs. Empty
   * (the default) runs the emulator on Cascade's built-in configs. Configuration parameter {@code
   * cascade.accelsim}.
   */
  String accelSim() default "";

  /**
   * The URL of a running Cascade ({@code http://gpu-box:8080}) to run the experiment on instead of
   * an embedded one, with its own traces, configs, launcher and simulator. Tests then get an {@link
   * Experiment} only: there is no embedded {@link dev.cascade.core.Cascade} to inject. Its token
   * comes from configuration parameter {@code cascade.token}, else {@code CASCADE_TOKEN}.
   * Configuration parameter {@code cascade.server}.
   */
  String server() default "";

  /**
   * How long {@link Experiment#run} waits for a run to finish, and the class start for its traces
   * to be ready, in seconds. Configuration parameter {@code cascade.timeout.seconds}.
   */
  long timeoutSeconds() default 600;
}
