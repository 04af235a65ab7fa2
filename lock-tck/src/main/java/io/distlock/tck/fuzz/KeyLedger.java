package io.distlock.tck.fuzz;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The witness's records of a run on keys, and its judgements: it catches two holders inside at once.
 *
 * <p>Entering, a section <em>claims</em> its key until 2 ms before its lease as read ({@link LockSight}). The claim is
 * the witness's sight of the section inside with lease left; it never outlives the lease, so a holder whose lease ran
 * out stops counting as inside at the very moment another may legitimately take the lock. Hence:
 *
 * <ul>
 *   <li><b>overlap</b>: a section enters while another section's claim is alive;
 *   <li><b>taken early</b>: a section's lock key is gone or someone else's while its claim is still alive, or, as the
 *       worker judges ({@link Judgements}), while by the holder's own clock less time than the lease has passed since
 *       it called for the lock: the lock was deleted or taken over before its lease ended;
 *   <li><b>fencing</b>: a section enters with a fencing token not above every earlier one of that key.
 * </ul>
 *
 * <p>A section whose lock key is not its own any more when it enters or at a checkpoint, once its lease may have run
 * out, is <em>lost</em>: no violation by itself, but its holder must learn of it, which the worker checks. Auto-renewed
 * sections refresh their claim to the lease as read while they run.
 *
 * <p>With a read-write lock, sections are writers or readers. Readers may be inside together, each claiming the key
 * until its own lease ends; a writer overlaps any claim, a reader only a writer's. A writer's fencing token must rise
 * above every earlier one, a reader's above the last writer's, since readers that got their tokens in one order may
 * well enter in another. A reader entering beside other readers is counted, to show that readers do share the key.
 *
 * <p>With a semaphore, every section holds a permit, as a reader its share, and its overlap is counted: a section that
 * enters while as many other sections as the key has permits claim it overlaps.
 */
final class KeyLedger extends RunLedger {

    /** The count of a ledger whose readers share a key without limit: a read-write lock's. */
    static final int READERS = 0;

    private final Map<String, KeyClaims> keys = new HashMap<>();
    private final int permits;
    private long readersBesideReaders;

    KeyLedger(LongSupplier clock) {
        this(clock, READERS);
    }

    /**
     * @param permits how many readers may claim a key at once: a semaphore's count, or {@link #READERS} for no limit
     */
    KeyLedger(LongSupplier clock, int permits) {
        super(clock);
        this.permits = permits;
    }

    @Override
    public synchronized int enter(Claimant section, HolderRead read) {
        LockSight sight = sight(read, section);
        if (sight == null) {
            return STALE;
        }
        if (!sight.mine(section.ownerToken())) {
            return NOT_OWN;
        }
        long now = sight.at();
        KeyClaims key = claims(section.key());
        int verdict = OWN;
        String occupant = key.writerAt(now);
        if (occupant != null && !occupant.equals(section.id())) {
            violation(
                    "overlap",
                    section.key(),
                    "overlap: " + section.id() + " entered while " + occupant + " was inside with lease left");
            verdict = VIOLATION;
        }
        Optional<String> reader = key.firstReaderAt(now);
        if (section.reader() && permits != READERS && key.readersOtherThan(section.id()) >= permits) {
            violation(
                    "overlap",
                    section.key(),
                    "overlap over the count: " + section.id() + " entered while " + key.readersOtherThan(section.id())
                            + " other holders of the key's " + permits + " permits were inside with lease left");
            verdict = VIOLATION;
        }
        if (reader.isPresent()) {
            if (section.reader()) {
                readersBesideReaders++;
            } else {
                violation(
                        "overlap",
                        section.key(),
                        "overlap: writer " + section.id() + " entered while reader " + reader.get()
                                + " was inside with lease left");
                verdict = VIOLATION;
            }
        }
        long fence = section.fence();
        long last = key.lastFence;
        long floor = section.reader() ? key.lastWriterFence : last;
        if (fence <= floor) {
            violation(
                    "fencing",
                    section.key(),
                    "fencing: " + section.id() + " entered after " + (section.reader() ? "a writer's " : "")
                            + "fencing token " + floor);
            verdict = VIOLATION;
        } else if (fence > last) {
            key.lastFence = fence;
        }
        key.fences.add(new Fence(fence, section.reader()));
        if (section.reader()) {
            key.readers.put(section.id(), sight.claimEnd());
            return verdict;
        }
        if (fence > floor) {
            key.lastWriterFence = fence;
        }
        key.writer = new Claim(section.id(), sight.claimEnd());
        return verdict;
    }

    /**
     * A claim alive at a checkpoint whose lock is not the holder's any more was taken early; a claim that ended while
     * the lock is still the holder's with lease left, and no writer inside, is a lapse. A renewed section extends its
     * claim, or claims again after a lapse unless a writer is inside by then.
     */
    @Override
    public synchronized int checkpoint(Claimant section, Checkpoint checkpoint, HolderRead read) {
        LockSight sight = sight(read, section);
        if (sight == null) {
            return STALE;
        }
        boolean mine = sight.mine(section.ownerToken());
        long now = sight.at();
        KeyClaims key = claims(section.key());
        String occupant = key.writerAt(now);
        boolean claimed = section.id().equals(occupant);
        if (section.reader()) {
            key.dropReadersEndedBy(now);
            claimed = key.readers.containsKey(section.id());
        }
        if (claimed) {
            if (checkpoint == Checkpoint.EXIT) {
                key.leave(section.id());
            }
            if (!mine) {
                violation(
                        "taken-early",
                        section.key(),
                        "taken early: the lock of " + section.id() + " was "
                                + (sight.holder() != null ? "taken over" : "deleted") + " before its lease ended");
                return VIOLATION;
            }
        } else if (!mine) {
            return NOT_OWN;
        } else if (occupant == null && sight.outlastsMargin()) {
            lapse();
        }
        if (checkpoint == Checkpoint.REFRESH && (claimed || occupant == null) && sight.outlastsMargin()) {
            if (section.reader()) {
                key.readers.put(section.id(), sight.claimEnd());
            } else {
                key.writer = new Claim(section.id(), sight.claimEnd());
            }
        }
        return OWN;
    }

    @Override
    public synchronized void leave(Claimant section) {
        claims(section.key()).leave(section.id());
    }

    /** A refusal tells nothing about a key that only locks itself. */
    @Override
    public void refused(String key) {}

    @Override
    String countedUnder(Claimant section) {
        return section.key();
    }

    @Override
    synchronized long sectionsOn(Collection<String> names) {
        return names.stream()
                .mapToLong(
                        name -> keys.containsKey(name) ? keys.get(name).fences.size() : 0)
                .sum();
    }

    /**
     * Reads the records back, with an offline check that each key's fencing tokens rose strictly in the order sections
     * entered: a writer's (or exclusive holder's) above every token before it, a reader's above the last writer's.
     */
    @Override
    synchronized CheckerRecords records(List<String> keyNames) {
        Map<String, CheckerRecords.KeyRecords> byKey = new LinkedHashMap<>();
        for (String name : keyNames) {
            List<Fence> fences = keys.containsKey(name) ? keys.get(name).fences : List.of();
            long readers = fences.stream().filter(Fence::reader).count();
            byKey.put(
                    name,
                    new CheckerRecords.KeyRecords(violationsOf(name), fences.size(), readers, fenceInversions(fences)));
        }
        return new CheckerRecords(
                violations(),
                details(),
                byKey.values().stream()
                        .mapToLong(CheckerRecords.KeyRecords::sectionsChecked)
                        .sum(),
                byKey.values().stream()
                        .mapToLong(CheckerRecords.KeyRecords::readerSections)
                        .sum(),
                readersBesideReaders,
                0,
                0,
                0,
                byKey.values().stream()
                        .mapToLong(CheckerRecords.KeyRecords::fenceInversions)
                        .sum(),
                lapses(),
                byKey);
    }

    static long fenceInversions(List<Fence> fences) {
        long highest = 0;
        long lastWriter = 0;
        long inversions = 0;
        for (Fence fence : fences) {
            if (fence.token() <= (fence.reader() ? lastWriter : highest)) {
                inversions++;
            }
            if (!fence.reader()) {
                lastWriter = Math.max(lastWriter, fence.token());
            }
            highest = Math.max(highest, fence.token());
        }
        return inversions;
    }

    private KeyClaims claims(String key) {
        return keys.computeIfAbsent(key, k -> new KeyClaims());
    }

    /** A fencing token that entered a key, a reader's or a writer's. */
    record Fence(long token, boolean reader) {}

    /** A writer's claim on a key, by section id, until {@code end} (ms since the epoch). */
    private record Claim(String id, long end) {}

    /** The claims and fencing tokens of one key. */
    private static final class KeyClaims {

        private @Nullable Claim writer;
        /** Readers' claims: when each ends, by section id. */
        private final Map<String, Long> readers = new HashMap<>();
        /** Every fencing token that entered, in the order they entered. */
        private final List<Fence> fences = new ArrayList<>();

        private long lastFence;
        private long lastWriterFence;

        /**
         * The writer inside at {@code now}, if its claim is alive. A writer's claim lives through the millisecond it
         * ends in, and a reader's does not: so the claims were kept when they were Redis keys that expired and sorted
         * set members dropped by score, and the judgements are kept as they were.
         */
        @Nullable
        String writerAt(long now) {
            return writer != null && writer.end() >= now ? writer.id() : null;
        }

        void dropReadersEndedBy(long now) {
            readers.values().removeIf(end -> end <= now);
        }

        /** How many readers other than {@code id} claim the key, as {@link #firstReaderAt} left the claims. */
        long readersOtherThan(String id) {
            return readers.size() - (readers.containsKey(id) ? 1 : 0);
        }

        /** The reader inside at {@code now} whose claim ends first, if any. */
        Optional<String> firstReaderAt(long now) {
            dropReadersEndedBy(now);
            return readers.entrySet().stream()
                    .min(Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
                    .map(Map.Entry::getKey);
        }

        void leave(String id) {
            readers.remove(id);
            if (writer != null && writer.id().equals(id)) {
                writer = null;
            }
        }
    }
}
