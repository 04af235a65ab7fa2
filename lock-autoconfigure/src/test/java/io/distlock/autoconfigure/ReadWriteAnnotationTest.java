package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.LockNotAcquiredException;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@code @DistributedLock(read = true)} shares the key with other readers and is kept out by a writer. */
@SpringBootTest
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReadWriteAnnotationTest {

    private static final Lease LONG = Lease.fixed(Duration.ofSeconds(30));

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.port", () -> TestRedis.shared().port());
    }

    @Autowired
    private Documents documents;

    @Autowired
    private Lock lock;

    private final String id = UUID.randomUUID().toString();

    @Test
    void aReadMethodRunsBesideAnotherReaderAndAWriteMethodDoesNot() throws Exception {
        try (LockHandle reading = lock.reading().tryAcquire("doc:" + id, LONG).orElseThrow()) {
            assertThat(documents.read(id)).isEqualTo("read");
            assertThatThrownBy(() -> documents.write(id)).isInstanceOf(LockNotAcquiredException.class);
        }
        assertThat(documents.write(id)).isEqualTo("written");
    }

    @Test
    void aReadMethodIsKeptOutByAWriter() throws Exception {
        try (LockHandle writing = lock.tryAcquire("doc:" + id, LONG).orElseThrow()) {
            assertThatThrownBy(() -> documents.read(id)).isInstanceOf(LockNotAcquiredException.class);
        }
        assertThat(documents.read(id)).isEqualTo("read");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        Documents documents() {
            return new Documents();
        }
    }

    static class Documents {

        @DistributedLock(key = "'doc:' + #id", read = true, leaseSeconds = 10, waitSeconds = 0)
        public String read(String id) {
            return "read";
        }

        @DistributedLock(key = "'doc:' + #id", leaseSeconds = 10, waitSeconds = 0)
        public String write(String id) {
            return "written";
        }
    }
}
