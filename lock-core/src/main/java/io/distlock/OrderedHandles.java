package io.distlock;

import io.distlock.internal.text.PrintableText;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/** The handles of several keys taken together, in the order they were taken; released in the reverse order. */
final class OrderedHandles implements MultiLockHandle {

    private final List<String> keys;
    private final List<LockHandle> handles;
    private final Map<String, LockHandle> byKey = new LinkedHashMap<>();
    private final AtomicBoolean released = new AtomicBoolean();

    OrderedHandles(List<String> keys, List<LockHandle> handles) {
        this.keys = List.copyOf(keys);
        this.handles = List.copyOf(handles);
        for (int i = 0; i < keys.size(); i++) {
            byKey.put(keys.get(i), handles.get(i));
        }
    }

    @Override
    public List<String> keys() {
        return keys;
    }

    @Override
    public List<LockHandle> handles() {
        return handles;
    }

    @Override
    public LockHandle handle(String key) {
        LockHandle handle = byKey.get(key);
        if (handle == null) {
            throw new IllegalArgumentException(
                    "key '" + PrintableText.of(key) + "' is not one of the keys held together: " + keys);
        }
        return handle;
    }

    @Override
    public long fencingToken(String key) {
        return handle(key).fencingToken();
    }

    @Override
    public boolean isLost() {
        return handles.stream().anyMatch(LockHandle::isLost);
    }

    @Override
    public void onLost(Consumer<LockLostException> callback) {
        AtomicBoolean called = new AtomicBoolean();
        for (LockHandle handle : handles) {
            handle.onLost(lost -> {
                if (called.compareAndSet(false, true)) {
                    callback.accept(lost);
                }
            });
        }
    }

    @Override
    public void extend(Duration lease) {
        if (released.get()) {
            throw new IllegalStateException("the locks " + keys + " were already released");
        }
        for (LockHandle handle : handles) {
            handle.extend(lease);
        }
    }

    @Override
    public void release() {
        if (!released.compareAndSet(false, true)) {
            throw new IllegalStateException("the locks " + keys + " were already released");
        }
        releaseAll();
    }

    @Override
    public void close() {
        if (released.compareAndSet(false, true)) {
            releaseAll();
        }
    }

    /** Releases every key, last taken first; a lost lock is the failure reported, with the others suppressed. */
    private void releaseAll() {
        LockLostException lost = null;
        RuntimeException failed = null;
        for (int i = handles.size() - 1; i >= 0; i--) {
            try {
                // close, not release: a key's own handle may have been released already, by locked work that ended.
                handles.get(i).close();
            } catch (LockLostException e) {
                if (lost == null) {
                    lost = e;
                } else {
                    lost.addSuppressed(e);
                }
            } catch (RuntimeException e) {
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        if (lost != null) {
            if (failed != null) {
                lost.addSuppressed(failed);
            }
            throw lost;
        }
        if (failed != null) {
            throw failed;
        }
    }

    @Override
    public String toString() {
        return "locks " + keys;
    }
}
