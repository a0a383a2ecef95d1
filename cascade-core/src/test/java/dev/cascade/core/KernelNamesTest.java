package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class KernelNamesTest {

  /** A real kernel symbol of a PyTorch trace. */
  static final String MANGLED =
      "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEENS_6detail5ArrayIPcLi1EEEEEviT0_T1_";

  @Test
  void readable_demanglesThroughCxxfiltAndShortensLongNames() {
    assumeTrue(KernelNames.system().canDemangle(), "c++filt (binutils) is not installed");

    String readable = KernelNames.system().readable(MANGLED);

    // c++filt gives "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<
    // float>, at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, ...)", too long.
    assertThat(readable).isEqualTo("at::native::vectorized_elementwise_kernel<…>");
    assertThat(KernelNames.system().readable("_Z6kernelPfi")).isEqualTo("kernel(float*, int)");
    assertThat(KernelNames.system().readable("gemm_kernel")).isEqualTo("gemm_kernel");
  }

  @Test
  void readable_keepsTheMangledNameWithoutADemangler() {
    KernelNames names = KernelNames.withoutDemangler();

    assertThat(names.canDemangle()).isFalse();
    assertThat(names.readable("_Z6kernelPfi")).isEqualTo("_Z6kernelPfi");
    assertThat(names.readable(MANGLED)).hasSize(KernelNameShortener.MAX).contains("…");
  }

  @Test
  void readable_runsOneDemanglerForAllNamesAndCachesThem(@TempDir Path dir) throws Exception {
    Path count = dir.resolve("runs");
    Path fake = dir.resolve("fake-c++filt");
    Files.writeString(
        fake, "#!/bin/sh\necho run >> '" + count + "'\nwhile read -r l; do echo \"R:$l\"; done\n");
    assertThat(fake.toFile().setExecutable(true)).isTrue();
    KernelNames names = KernelNames.demanglingWith(List.of(fake.toString()));

    Map<String, String> first = names.readable(List.of("_Z1av", "_Z1bv", "plain"));
    names.readable(List.of("_Z1av", "_Z1bv"));

    assertThat(first)
        .containsExactly(
            Map.entry("_Z1av", "R:_Z1av"),
            Map.entry("_Z1bv", "R:_Z1bv"),
            Map.entry("plain", "plain"));
    assertThat(Files.readAllLines(count)).hasSize(1);
  }

  @Test
  void readable_keepsTheNamesWhenTheDemanglerFails(@TempDir Path dir) {
    KernelNames names = KernelNames.demanglingWith(List.of(dir.resolve("missing").toString()));

    assertThat(names.readable("_Z1av")).isEqualTo("_Z1av");
  }
}
