package dev.cascade.agent;

/**
 * Makes its own JVM undumpable and prints what {@link Undumpable#apply} said, for {@link
 * UndumpableIT}.
 */
final class UndumpableProbe {

  private UndumpableProbe() {}

  public static void main(String[] args) {
    Undumpable.Result result = Undumpable.apply();
    System.out.println(result.done() + " " + result.reason());
  }
}
