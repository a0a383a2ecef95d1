package dev.cascade.core.internal.trace;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;
import static java.nio.file.StandardWatchEventKinds.OVERFLOW;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the traces folder and every folder under it (folders created later too) and reports which
 * trace changed: {@code onChange} gets the trace id, the first path element under the root. When
 * the operating system drops events (overflow), or a folder cannot be registered, it calls {@code
 * onOverflow} so the caller rescans everything. Symbolic links are never followed. Runs on one
 * daemon thread until {@link #close}.
 */
final class FolderWatcher implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(FolderWatcher.class);

  private final Path root;
  private final Consumer<String> onChange;
  private final Runnable onOverflow;
  private final WatchService service;
  private final Map<WatchKey, Path> folders = new ConcurrentHashMap<>();
  private final Thread thread;
  private volatile boolean closed;

  FolderWatcher(Path root, Consumer<String> onChange, Runnable onOverflow, String threadName)
      throws IOException {
    this.root = root;
    this.onChange = onChange;
    this.onOverflow = onOverflow;
    this.service = root.getFileSystem().newWatchService();
    registerTree(root);
    this.thread = new Thread(this::run, threadName);
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  private void run() {
    while (!closed) {
      WatchKey key;
      try {
        key = service.take();
      } catch (InterruptedException | ClosedWatchServiceException e) {
        return;
      }
      try {
        handle(key);
      } catch (RuntimeException e) {
        log.warn("trace folder watcher: handling an event failed; a rescan will catch up", e);
        onOverflow.run();
      }
    }
  }

  private void handle(WatchKey key) {
    Path folder = folders.get(key);
    for (WatchEvent<?> event : key.pollEvents()) {
      if (event.kind() == OVERFLOW || folder == null) {
        onOverflow.run();
        continue;
      }
      Path changed = folder.resolve((Path) event.context());
      if (event.kind() == ENTRY_CREATE
          && Files.isDirectory(changed, LinkOption.NOFOLLOW_LINKS)
          && !registerTree(changed)) {
        onOverflow.run();
      }
      report(changed);
    }
    if (!key.reset()) {
      folders.remove(key);
      if (folder != null && !folder.equals(root)) {
        report(folder);
      }
    }
  }

  private void report(Path changed) {
    Path relative = root.relativize(changed);
    if (relative.getNameCount() > 0 && !relative.toString().isEmpty()) {
      onChange.accept(relative.getName(0).toString());
    }
  }

  /** Registers {@code top} and every folder under it; false when one could not be registered. */
  private boolean registerTree(Path top) {
    boolean[] complete = {true};
    try {
      Files.walkFileTree(
          top,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
              try {
                folders.put(dir.register(service, ENTRY_CREATE, ENTRY_MODIFY, ENTRY_DELETE), dir);
              } catch (IOException | ClosedWatchServiceException e) {
                log.debug("cannot watch \"{}\": {}", dir, e.toString());
                complete[0] = false;
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      log.debug("cannot watch under \"{}\": {}", top, e.toString());
      return false;
    }
    return complete[0];
  }

  @Override
  public void close() {
    closed = true;
    try {
      service.close();
    } catch (IOException e) {
      log.debug("closing the watch service failed", e);
    }
    thread.interrupt();
    if (thread.isAlive() && thread != Thread.currentThread()) {
      try {
        thread.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
