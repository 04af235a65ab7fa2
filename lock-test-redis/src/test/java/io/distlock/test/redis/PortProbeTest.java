package io.distlock.test.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.tck.net.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class PortProbeTest {

    @Test
    void identifiesTheProcessBehindAPort() {
        TestRedis redis = TestRedis.shared();
        String info = redis.command("INFO", "server");
        long pid = Long.parseLong(info.replaceAll("(?s).*process_id:(\\d+).*", "$1"));

        assertThat(PortProbe.isServedBy(redis.host(), redis.port(), null, pid)).isTrue();
        assertThat(PortProbe.isServedBy(redis.host(), redis.port(), null, pid + 1))
                .isFalse();
    }

    @Test
    void authenticatesBeforeAskingWhoServes() {
        try (TestRedis redis = TestRedis.builder().password("pw").start()) {
            String info = redis.command("INFO", "server");
            long pid = Long.parseLong(info.replaceAll("(?s).*process_id:(\\d+).*", "$1"));

            assertThat(PortProbe.answersPing(redis.host(), redis.port())).isTrue();
            assertThat(PortProbe.isServedBy(redis.host(), redis.port(), "pw", pid))
                    .isTrue();
        }
    }

    @Test
    void aClosedPortNeitherListensNorAnswers() {
        int port = FreePorts.next();
        assertThat(PortProbe.isListening("127.0.0.1", port)).isFalse();
        assertThat(PortProbe.answersPing("127.0.0.1", port)).isFalse();
    }
}
