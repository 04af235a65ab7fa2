package io.distlock.example.file;

import io.distlock.LockLostException;
import io.distlock.store.StoreLease;
import java.time.Duration;
import java.util.Optional;

/** A hold of a key's file; every change compares the owner token and the lease's end on the machine's clock first. */
final class FileLease implements StoreLease {

    private final FileLeaseStore store;
    private final String key;
    private final String owner;
    private final long fencingToken;

    FileLease(FileLeaseStore store, String key, String owner, long fencingToken) {
        this.store = store;
        this.key = key;
        this.owner = owner;
        this.fencingToken = fencingToken;
    }

    @Override
    public long fencingToken() {
        return fencingToken;
    }

    @Override
    public boolean extend(Duration lease) {
        long millis = lease.toMillis();
        Boolean extended = store.call(
                key,
                "extending",
                () -> store.file(key)
                        .change((state, now) -> state.heldBy(owner, now)
                                ? new KeyFile.Outcome<>(new KeyFile.State(owner, now + millis, state.fence()), true)
                                : new KeyFile.Outcome<>(state, false)));
        return Boolean.TRUE.equals(extended);
    }

    @Override
    public Optional<LockLostException.Reason> checkOwned() {
        Boolean owned = store.call(
                key,
                "confirming the hold",
                () -> store.file(key).change((state, now) -> new KeyFile.Outcome<>(state, state.heldBy(owner, now))));
        return Boolean.TRUE.equals(owned) ? Optional.empty() : Optional.of(LockLostException.Reason.KEY_GONE);
    }

    @Override
    public boolean release() {
        Boolean released = store.call(
                key,
                "releasing",
                () -> store.file(key)
                        .change((state, now) -> state.heldBy(owner, now)
                                ? new KeyFile.Outcome<>(new KeyFile.State("", 0, state.fence()), true)
                                : new KeyFile.Outcome<>(state, false)));
        if (Boolean.TRUE.equals(released)) {
            store.releases().released();
            return true;
        }
        return false;
    }
}
