package dev.cascade.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class or method only when the launcher with this name is on the class
 * path and can be used here ({@link dev.cascade.core.spi.Launcher#unavailableReason()} is empty);
 * otherwise it is skipped, with the reason as the skip message:
 *
 * <pre>{@code
 * @EnabledIfLauncherAvailable("sail")
 * @CascadeExperiment(launcher = "sail")
 * final class SailSweepTest { ... }
 * }</pre>
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(LauncherAvailableCondition.class)
public @interface EnabledIfLauncherAvailable {

  /** The launcher's name: {@code local}, {@code sail}, ... */
  String value();
}
