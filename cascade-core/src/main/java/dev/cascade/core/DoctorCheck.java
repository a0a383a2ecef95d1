package dev.cascade.core;

import java.util.Locale;
import java.util.Objects;

/**
 * One check of {@link AccelSimDoctor}: what was checked, whether it passed, what was found, and,
 * when it failed or could not run, what to do about it, in words.
 *
 * @param id a stable name for programs ({@code binary}, {@code libraries}, {@code smoke}, ...)
 * @param title what was checked, for people
 * @param status passed, failed, or skipped (not applicable here, or waiting on a failed check)
 * @param detail what was found: a path, a count, the simulator's or the loader's own words
 * @param fix what to do; empty when the check passed
 */
public record DoctorCheck(String id, String title, Status status, String detail, String fix) {

  /** How a check came out. */
  public enum Status {
    PASS,
    FAIL,
    SKIP;

    /** {@code pass}, {@code fail} or {@code skip}, as the JSON and the table show it. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public DoctorCheck {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(status, "status");
    detail = detail == null ? "" : detail;
    fix = fix == null ? "" : fix;
  }

  /** A check that passed. */
  public static DoctorCheck pass(String id, String title, String detail) {
    return new DoctorCheck(id, title, Status.PASS, detail, "");
  }

  /** A check that failed, with what was found and what to do. */
  public static DoctorCheck fail(String id, String title, String detail, String fix) {
    return new DoctorCheck(id, title, Status.FAIL, detail, fix);
  }

  /** A check that did not run, with why and what would make it run. */
  public static DoctorCheck skip(String id, String title, String detail, String fix) {
    return new DoctorCheck(id, title, Status.SKIP, detail, fix);
  }

  /** Whether the check failed. */
  public boolean failed() {
    return status == Status.FAIL;
  }
}
