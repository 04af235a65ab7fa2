package io.distlock.tck.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * A worker's requests arrive at the witness's ledger as the worker wrote them, whatever characters their keys, paths
 * and holders hold.
 */
class WitnessProtocolTest {

    private static final Claimant SECTION =
            new Claimant("/文件/a b/%*{x}/", "p0t1#7/fence 42/reader", "owner-token", 42, true);

    private final KeyLedger ledger = new KeyLedger(() -> 1_000_000);

    @Test
    void aSectionAndItsReadArriveAsWritten() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        WitnessProtocol.write(out, SECTION);
        WitnessProtocol.write(out, Ledger.Checkpoint.REFRESH);
        WitnessProtocol.write(out, HolderRead.until("owner-token+mark", 1_000_500));
        WitnessProtocol.write(out, HolderRead.none());

        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
        assertThat(WitnessProtocol.readClaimant(in)).isEqualTo(SECTION);
        assertThat(WitnessProtocol.readCheckpoint(in)).isEqualTo(Ledger.Checkpoint.REFRESH);
        assertThat(WitnessProtocol.readHolderRead(in)).isEqualTo(HolderRead.until("owner-token+mark", 1_000_500));
        assertThat(WitnessProtocol.readHolderRead(in)).isEqualTo(HolderRead.none());
    }

    @Test
    void anEntryIsAnsweredWithTheLedgersVerdict() throws IOException, InterruptedException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        WitnessProtocol.write(out, SECTION);
        WitnessProtocol.write(out, HolderRead.until("owner-token", 1_000_001));

        int verdict = WitnessProtocol.answer(
                WitnessProtocol.ENTER,
                new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())),
                ledger,
                () -> {});

        assertThat(verdict).as("a read with 1 ms left").isEqualTo(Ledger.STALE);
    }

    @Test
    void anUnknownRequestEndsTheConnection() {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(new byte[0]));

        assertThatThrownBy(() -> WitnessProtocol.answer(99, in, ledger, () -> {}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("99");
    }
}
