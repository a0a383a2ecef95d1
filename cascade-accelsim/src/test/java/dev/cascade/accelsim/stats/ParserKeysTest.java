package dev.cascade.accelsim.stats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.accelsim.stats.KeyTable.Key;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The key table shared by every parser, and each parser's own keys beyond it. */
final class ParserKeysTest {

  private static final String LOG =
      """
      kernel_name = first
      gpu_sim_cycle = 10
      gpu_tot_sim_cycle = 10
      L2_cache_bank[0]: Access = 3, Miss = 1
      gpgpu_silicon_slowdown = 1x
      """;

  private static Key lookup(ParserKeys keys, String name) {
    byte[] b = name.getBytes(StandardCharsets.UTF_8);
    return keys.lookup(b, 0, b.length, KeyTable.hash(b, 0, b.length));
  }

  @Test
  void twoParsers_shareTheKeysTheyLearn() {
    List<String> first = statNames(LOG);
    List<String> second = statNames(LOG);

    assertThat(second).isEqualTo(first);
    for (int i = 0; i < first.size(); i++) {
      assertThat(second.get(i)).isSameAs(first.get(i)); // one String per key in the JVM
    }
  }

  @Test
  void twoParsers_shareTheLayoutOfABlockWithTheSameKeys() {
    BlockStats first = (BlockStats) kernels(LOG).get(0).stats();
    BlockStats second = (BlockStats) kernels(LOG).get(0).stats();

    assertThat(second.layout()).isSameAs(first.layout());
    assertThat(second).isEqualTo(first);
  }

  @Test
  void parsersInManyThreads_giveWhatOneThreadGives() throws Exception {
    StringBuilder log = new StringBuilder();
    for (int k = 0; k < 20; k++) {
      log.append("kernel_name = k").append(k).append('\n');
      for (int s = 0; s < 200; s++) {
        log.append("threads_stat_").append(k % 3).append('_').append(s).append(" = ");
        log.append(s).append('\n');
      }
      log.append("bank[").append(k).append("]: a = 1, b = 2, a = 3\n");
      log.append("gpgpu_silicon_slowdown = 1x\n");
    }
    byte[] bytes = log.toString().getBytes(StandardCharsets.UTF_8);
    List<String> expected = KernelStatsParserTest.Recorder.events(bytes);

    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<List<String>>> results = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        results.add(pool.submit(() -> KernelStatsParserTest.Recorder.events(bytes)));
      }
      for (Future<List<String>> result : results) {
        assertThat(result.get()).isEqualTo(expected);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void fullTable_keepsNewKeysForTheBlockOnly() {
    ParserKeys keys = new ParserKeys(new KeyTable(2));
    Key a = lookup(keys, "a");
    Key b = lookup(keys, "b");
    Key c = lookup(keys, "c");
    Key d = lookup(keys, "d");

    assertThat(a.inTable()).isTrue();
    assertThat(b.inTable()).isTrue();
    assertThat(c.inTable()).isFalse();
    assertThat(c.name).isEqualTo("c");
    assertThat(lookup(keys, "c")).isSameAs(c);
    assertThat(d.id).isNotEqualTo(c.id);

    keys.added(c, 1, 1);
    assertThat(keys.generation(c)).isEqualTo(1);
    keys.startBlock();

    Key again = lookup(keys, "c");
    assertThat(again).isNotSameAs(c);
    assertThat(again.name).isEqualTo("c");
    assertThat(keys.generation(again)).isEqualTo(-1); // a new block: not yet added
    assertThat(lookup(keys, "a")).isSameAs(a);
  }

  @Test
  void repeatedKey_getsNumberedNamesAcrossTheFullTable() {
    ParserKeys keys = new ParserKeys(new KeyTable(1));
    Key base = lookup(keys, "x");

    assertThat(keys.repeat(base, 2).name).isEqualTo("x#2");
    assertThat(keys.repeat(base, 12).name).isEqualTo("x#12");
  }

  private static List<KernelStats> kernels(String log) {
    KernelStatsParserTest.Recorder recorder = new KernelStatsParserTest.Recorder();
    KernelStatsParser parser = new KernelStatsParser(recorder);
    parser.feed(log.getBytes(StandardCharsets.UTF_8));
    parser.finish();
    return recorder.kernels;
  }

  private static List<String> statNames(String log) {
    List<String> names = new ArrayList<>();
    KernelStatsParser parser =
        new KernelStatsParser(
            new StatsListener() {
              @Override
              public void onKernelFinished(KernelStats kernel) {
                kernel.forEachStat(
                    new KernelStats.StatVisitor() {
                      @Override
                      public void integer(String key, long value) {
                        names.add(key);
                      }

                      @Override
                      public void decimal(String key, double value) {
                        names.add(key);
                      }
                    });
              }
            });
    parser.feed(log.getBytes(StandardCharsets.UTF_8));
    parser.finish();
    return names;
  }
}
