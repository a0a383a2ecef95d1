package dev.cascade.core.internal.catalog;

import dev.cascade.agent.emulator.BuiltInGpus;
import dev.cascade.agent.emulator.GpuFacts;
import dev.cascade.core.GpuConfig;
import java.util.List;

/**
 * The configs Cascade knows without an Accel-Sim install, for the emulator: the agent's table of
 * well-known tested-cfgs ({@link BuiltInGpus}) as catalog entries.
 */
public final class BuiltInCatalog {

  private BuiltInCatalog() {}

  public static List<GpuConfig> load() {
    return BuiltInGpus.all().stream().map(BuiltInCatalog::toConfig).toList();
  }

  private static GpuConfig toConfig(GpuFacts facts) {
    return new GpuConfig(
        facts.name(),
        facts.arch(),
        facts.clockMhz(),
        facts.sms(),
        false,
        true,
        null,
        List.of(),
        null,
        null);
  }
}
