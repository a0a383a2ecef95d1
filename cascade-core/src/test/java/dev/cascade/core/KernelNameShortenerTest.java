package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class KernelNameShortenerTest {

  @Test
  void shorten_keepsNamesThatFit() {
    assertThat(KernelNameShortener.shorten("kernel(float*, int)")).isEqualTo("kernel(float*, int)");
  }

  @Test
  void shorten_dropsParametersThenTheReturnTypeThenFoldsTemplates() {
    String name =
        "void at::native::(anonymous namespace)::reduce_kernel<512, 1, at::native::ReduceOp<float,"
            + " at::native::MeanOps<float, float>, unsigned int, float, 4>>(at::native::ReduceOp<"
            + "float, at::native::MeanOps<float, float>, unsigned int, float, 4>)";

    assertThat(KernelNameShortener.dropParameters(name)).doesNotEndWith(")").startsWith("void ");
    assertThat(KernelNameShortener.shorten(name))
        .isEqualTo("at::native::(anonymous namespace)::reduce_kernel<…>");
  }

  @Test
  void shorten_keepsTheLastTwoScopesOfALongQualifiedName() {
    String name =
        "cutlass::gemm::kernel::detail::very_long_namespace_for_testing::GemmUniversal<…>::invoke";

    assertThat(KernelNameShortener.shorten(name)).isEqualTo("GemmUniversal<…>::invoke");
  }

  @Test
  void shorten_cutsWhatIsStillTooLongInTheMiddle() {
    String shown = KernelNameShortener.shorten("k".repeat(100));

    assertThat(shown).hasSize(KernelNameShortener.MAX).contains("…");
  }
}
