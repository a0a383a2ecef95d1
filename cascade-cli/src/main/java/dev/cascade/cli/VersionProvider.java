package dev.cascade.cli;

import picocli.CommandLine.IVersionProvider;

/** Reads the version Maven wrote into the jar's manifest; "dev" when run from classes. */
final class VersionProvider implements IVersionProvider {

  @Override
  public String[] getVersion() {
    String version = CascadeCommand.class.getPackage().getImplementationVersion();
    return new String[] {"cascade " + (version == null ? "dev" : version)};
  }
}
