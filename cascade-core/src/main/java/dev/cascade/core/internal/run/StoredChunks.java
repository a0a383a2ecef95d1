package dev.cascade.core.internal.run;

import dev.cascade.core.internal.store.ChunkRepository;
import java.util.List;
import java.util.Optional;

/** {@link SimOutputs} from the stored chunks alone, before their parsed statistics are wired in. */
public final class StoredChunks implements SimOutputs {

  private final ChunkRepository chunks;

  public StoredChunks(ChunkRepository chunks) {
    this.chunks = chunks;
  }

  @Override
  public boolean accept(String simId, String runId, long seq, byte[] bytes) {
    return chunks.insert(new ChunkRepository.Chunk(simId, seq, bytes));
  }

  @Override
  public boolean holdsAll(String simId, long produced) {
    return chunks.contiguousCount(simId) >= produced;
  }

  @Override
  public List<Long> missing(String simId, long produced) {
    return chunks.missing(simId, produced, 500);
  }

  @Override
  public void finish(String simId) {}

  @Override
  public Optional<String> failureInLog(String simId) {
    return Optional.empty();
  }
}
