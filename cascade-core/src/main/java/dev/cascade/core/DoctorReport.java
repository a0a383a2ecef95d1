package dev.cascade.core;

import java.util.List;
import java.util.Optional;

/**
 * What {@link AccelSimDoctor#check()} found: every check in the order it ran. It passes when no
 * check failed (a skipped check does not fail it: without an Accel-Sim, its checks are skipped and
 * say how to point Cascade at one).
 */
public record DoctorReport(List<DoctorCheck> checks) {

  public DoctorReport {
    checks = List.copyOf(checks);
  }

  /** True when no check failed. */
  public boolean passed() {
    return checks.stream().noneMatch(DoctorCheck::failed);
  }

  /** The check with this id, if it ran. */
  public Optional<DoctorCheck> check(String id) {
    return checks.stream().filter(check -> check.id().equals(id)).findFirst();
  }

  /** The checks that failed, in order. */
  public List<DoctorCheck> failures() {
    return checks.stream().filter(DoctorCheck::failed).toList();
  }
}
