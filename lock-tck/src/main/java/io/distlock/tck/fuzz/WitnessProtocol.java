package io.distlock.tck.fuzz;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * How a worker's {@link WitnessClient} and the parent's {@link Witness} talk over a loopback socket: a request is one
 * byte naming a {@link Ledger} call, then its arguments, texts as length-prefixed UTF-8 ({@link DataOutput#writeUTF}),
 * so that keys, paths and owner tokens may hold any characters; the answer is one int, the verdict of a judgement or
 * {@link #DONE}. A connection carries one request at a time, so a worker opens one for each of its callers at once.
 */
final class WitnessProtocol {

    static final byte ENTER = 1;
    static final byte CHECKPOINT = 2;
    static final byte LEAVE = 3;
    static final byte REFUSED = 4;
    static final byte TAKEN_EARLY = 5;

    /** Answered once the parent has told the workers to start. */
    static final byte GO = 6;

    /** The answer to a request that has no verdict. */
    static final int DONE = 0;

    private WitnessProtocol() {}

    static void write(DataOutput out, Claimant section) throws IOException {
        out.writeUTF(section.key());
        out.writeUTF(section.id());
        out.writeUTF(section.ownerToken());
        out.writeLong(section.fence());
        out.writeBoolean(section.reader());
    }

    static Claimant readClaimant(DataInput in) throws IOException {
        return new Claimant(in.readUTF(), in.readUTF(), in.readUTF(), in.readLong(), in.readBoolean());
    }

    static void write(DataOutput out, HolderRead read) throws IOException {
        out.writeBoolean(read.holder() != null);
        if (read.holder() != null) {
            out.writeUTF(read.holder());
        }
        out.writeLong(read.leaseEndMillis());
    }

    static HolderRead readHolderRead(DataInput in) throws IOException {
        String holder = in.readBoolean() ? in.readUTF() : null;
        return new HolderRead(holder, in.readLong());
    }

    static void write(DataOutput out, Ledger.Checkpoint checkpoint) throws IOException {
        out.writeByte(checkpoint.ordinal());
    }

    static Ledger.Checkpoint readCheckpoint(DataInput in) throws IOException {
        int ordinal = in.readUnsignedByte();
        Ledger.Checkpoint[] checkpoints = Ledger.Checkpoint.values();
        if (ordinal >= checkpoints.length) {
            throw new IOException("no checkpoint " + ordinal);
        }
        return checkpoints[ordinal];
    }

    /**
     * Answers one request of {@code in}, whose byte {@code request} has been read, from {@code ledger}; a request to
     * start waits on {@code go}.
     */
    static int answer(int request, DataInput in, Ledger ledger, StartSignal go)
            throws IOException, InterruptedException {
        return switch (request) {
            case ENTER -> ledger.enter(readClaimant(in), readHolderRead(in));
            case CHECKPOINT -> ledger.checkpoint(readClaimant(in), readCheckpoint(in), readHolderRead(in));
            case LEAVE -> {
                ledger.leave(readClaimant(in));
                yield DONE;
            }
            case REFUSED -> {
                ledger.refused(in.readUTF());
                yield DONE;
            }
            case TAKEN_EARLY -> {
                ledger.takenEarly(readClaimant(in), in.readUTF());
                yield DONE;
            }
            case GO -> {
                go.await();
                yield DONE;
            }
            default -> throw new IOException("no request " + request);
        };
    }

    /** Where a request to start waits for the parent's signal. */
    @FunctionalInterface
    interface StartSignal {
        void await() throws InterruptedException;
    }
}
