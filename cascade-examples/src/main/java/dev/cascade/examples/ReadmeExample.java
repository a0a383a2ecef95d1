package dev.cascade.examples;

// tag::readme[]
import dev.cascade.core.Cascade;
import dev.cascade.core.DemoTraces;
import dev.cascade.core.LocalLauncher;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

public final class ReadmeExample {

  public static void main(String[] args) throws Exception {
    Path dataDir = Path.of(args.length > 0 ? args[0] : "cascade-data");
    DemoTraces.seedIfEmpty(dataDir); // the demo trace, as `cascade serve` seeds it
    try (Cascade cascade =
        Cascade.builder().dataDir(dataDir).launcher(new LocalLauncher()).build().start()) {
      cascade.traces().await("demo", Duration.ofMinutes(1)); // ready once processed
      Run run = cascade.runs().create("demo", List.of(new RunEntry("SM90_H100", 4)));
      cascade.runs().await(run.id(), Duration.ofMinutes(30));
      cascade.results().compare(run.id()).forEach(System.out::println);
    }
  }
}
// end::readme[]
