package io.distlock.tck.fuzz;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What a fuzz worker does next: which operation, with which lease, on which key, waiting how long. Draws are weighted;
 * the weights keep the section mix dominated by tiny sections so that tens of thousands of acquisitions fit in a short
 * run, with enough short and renewed leases to exercise loss and renewal.
 */
final class Workload {

    /**
     * The share of a read-write run's sections that read, in percent: most, as read-write locks are used, and enough
     * that readers often share a key.
     */
    private static final int READ_PERCENT = 70;

    private final int[] operationWeights;
    private final int[] profileWeights;
    private final KeySpace keys;
    private final int readPercent;

    private Workload(int[] operationWeights, int[] profileWeights, KeySpace keys, int readPercent) {
        this.operationWeights = operationWeights;
        this.profileWeights = profileWeights;
        this.keys = keys;
        this.readPercent = readPercent;
    }

    /**
     * The draws of a {@link SectionMix}. Broken locks (the {@link SectionMix#CONTROL} mix) get no nested sections, nor
     * sections under several keys, and more short leases, since an outlived lease is where their release goes wrong. A
     * path run's {@code keyNames} are the paths of its tree.
     */
    static Workload of(SectionMix mix, List<String> keyNames) {
        // Weights in the order of Operation: TRY_NOW, TRY_WAIT, ACQUIRE, CALL, RUN, NESTED, HANDOFF, SEVERAL_KEYS.
        // Weights in the order of LeaseProfile, per mille: FIXED_LONG, FIXED_SHORT, FIXED_TO_THE_END,
        // FIXED_TO_THE_END_LOADED, RENEWED, RENEWED_HELD.
        // Readers take every operation writers do: a reader lock re-enters a read inside a read scope, releases from
        // any thread, renews, and takes several keys through Lock's all-or-none default.
        if (mix.paths()) {
            // Paths get five times the keys' short leases: a lease that runs out must free its path for the ancestors
            // too, which see it only in their sets of holders below, and a short path run on a busy machine, with few
            // sections, must still see leases run out. The broken control has every operation too.
            return new Workload(
                    new int[] {24, 24, 10, 11, 11, 10, 10, 8},
                    new int[] {700, 60, 40, 0, 199, 1},
                    new PathKeys(PathTree.of(keyNames), mix == SectionMix.PATHS_AS_PLAIN_KEYS),
                    0);
        }
        // A semaphore's sections all take permits, through the reader's place in the lock under test.
        int readPercent = mix == SectionMix.PERMITS ? 100 : mix.readWrite() ? READ_PERCENT : 0;
        KeySpace keys = KeySpace.flat(keyNames);
        return mix != SectionMix.CONTROL
                ? new Workload(
                        new int[] {24, 24, 10, 11, 11, 10, 10, 8}, new int[] {820, 12, 8, 0, 159, 1}, keys, readPercent)
                : new Workload(
                        new int[] {25, 25, 10, 15, 15, 0, 10, 0}, new int[] {500, 100, 150, 200, 50, 0}, keys, 0);
    }

    /** Whether the next section reads: never unless the lock kind has readers. */
    boolean reads(SplittableRandom random) {
        return random.nextInt(100) < readPercent;
    }

    Operation operation(SplittableRandom random) {
        return Operation.values()[draw(operationWeights, random)];
    }

    /** The next operation of an asynchronous holder: one of the non-blocking forms, evenly. */
    Operation asyncOperation(SplittableRandom random) {
        return random.nextBoolean() ? Operation.ASYNC_TRY : Operation.ASYNC_ACQUIRE;
    }

    /**
     * A nested section needs an outer hold that outlives it, so it gets a long or renewed lease. A section under
     * several keys is not held across renewals, since only one of its keys' claims could be refreshed.
     */
    LeaseProfile profile(Operation operation, SplittableRandom random) {
        LeaseProfile profile = LeaseProfile.values()[draw(profileWeights, random)];
        if (operation == Operation.NESTED && profile != LeaseProfile.RENEWED) {
            return LeaseProfile.FIXED_LONG;
        }
        if (operation == Operation.SEVERAL_KEYS && profile == LeaseProfile.RENEWED_HELD) {
            return LeaseProfile.RENEWED;
        }
        return profile;
    }

    /** The key of the next section, which {@code operation} takes. */
    String key(Operation operation, SplittableRandom random) {
        return keys.key(operation, random);
    }

    /** A key to take together with {@code key}: another one, unless there is only one. */
    String otherKey(String key, SplittableRandom random) {
        return keys.otherKey(key, random);
    }

    /** The key a handle acquired with {@code key} reports. */
    String handleKey(String key) {
        return keys.handleKey(key);
    }

    /** One of the run's key names as the sections write it to the lock. */
    String written(String name) {
        return keys.written(name);
    }

    /** A wait for the waiting forms: sometimes zero (try once), usually a few holders' worth. */
    Duration wait(SplittableRandom random) {
        return random.nextInt(10) == 0 ? Duration.ZERO : Duration.ofMillis(random.nextLong(10, 251));
    }

    private static int draw(int[] weights, SplittableRandom random) {
        int total = 0;
        for (int weight : weights) {
            total += weight;
        }
        int point = random.nextInt(total);
        for (int i = 0; i < weights.length; i++) {
            point -= weights[i];
            if (point < 0) {
                return i;
            }
        }
        throw new IllegalStateException("weights must be positive in total");
    }
}
