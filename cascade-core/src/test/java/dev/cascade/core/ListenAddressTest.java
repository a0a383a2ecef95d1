package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class ListenAddressTest {

  @Test
  void parse_readsEveryFormOfAnAddressOnce() {
    assertThat(ListenAddress.parse("127.1").literal()).isEqualTo("127.0.0.1");
    assertThat(ListenAddress.parse("::ffff:127.0.0.1").literal()).isEqualTo("127.0.0.1");
    assertThat(ListenAddress.parse(" [::1] ").literal()).isEqualTo("::1");
    assertThat(ListenAddress.parse("fe80:0:0:1:0:0:0:2").literal()).isEqualTo("fe80:0:0:1::2");
    assertThat(ListenAddress.parse("2001:db8:1:2:3:4:5:6").literal())
        .isEqualTo("2001:db8:1:2:3:4:5:6");
    assertThat(ListenAddress.parse("::").literal()).isEqualTo("::");
    assertThat(ListenAddress.parse("127.1").isLoopback()).isTrue();
    assertThat(ListenAddress.parse("10.0.0.1").isLoopback()).isFalse();
  }

  @Test
  void urls_bracketIpv6AndUseLoopbackForEveryAddress() {
    assertThat(ListenAddress.parse("::1").clientHost()).isEqualTo("[::1]");
    assertThat(ListenAddress.parse("::1").literalInUrl()).isEqualTo("[::1]");
    assertThat(ListenAddress.parse("::").clientHost()).isEqualTo("[::1]");
    assertThat(ListenAddress.parse("0.0.0.0").clientHost()).isEqualTo("127.0.0.1");
    assertThat(ListenAddress.parse("::ffff:127.0.0.1").clientHost()).isEqualTo("127.0.0.1");
    assertThat(ListenAddress.parse("127.1").clientHost()).isEqualTo("127.0.0.1");
  }

  @Test
  void parse_refusesWhatIsNoAddressNamingIt() {
    assertThatThrownBy(() -> ListenAddress.parse("not a host.invalid"))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining("\"not a host.invalid\"")
        .satisfies(e -> assertThat(((CascadeException) e).field()).isEqualTo("bind"));
    assertThatThrownBy(() -> ListenAddress.parse(" "))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining("blank");
  }
}
