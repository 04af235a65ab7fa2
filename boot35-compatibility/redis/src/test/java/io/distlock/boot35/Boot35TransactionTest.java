package io.distlock.boot35;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.DistributedLock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostAfterCommitException;
import io.distlock.LockLostException;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;

/**
 * On Spring Framework 6.2 too, the lock encloses the transaction and a lock lost before the commit rolls it back,
 * through the listener distlock adds to the transaction manager.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Boot35TransactionTest {

    private final ApplicationContextRunner application = new ApplicationContextRunner()
            .withUserConfiguration(Application.class)
            .withPropertyValues(
                    "spring.data.redis.port=" + TestRedis.shared().port(),
                    "spring.datasource.url=jdbc:h2:mem:boot35-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

    @Test
    void lockLostBeforeTheCommitRollsTheTransactionBack() {
        application.run(context -> {
            JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
            jdbc.execute("create table orders (id varchar(60) primary key)");
            Orders orders = context.getBean(Orders.class);

            orders.place("kept-" + UUID.randomUUID());
            assertThatThrownBy(() -> orders.placeAndOutliveTheLease("lost-" + UUID.randomUUID()))
                    .isInstanceOf(LockLostException.class)
                    .isNotInstanceOf(LockLostAfterCommitException.class);

            assertThat(jdbc.queryForObject("select count(*) from orders", Integer.class))
                    .as("orders committed")
                    .isOne();
        });
    }

    static class Orders {

        private final JdbcTemplate jdbc;

        Orders(JdbcTemplate jdbc) {
            this.jdbc = jdbc;
        }

        @DistributedLock(key = "#id", leaseSeconds = 30)
        @Transactional
        public void place(String id) {
            jdbc.update("insert into orders values (?)", id);
        }

        @DistributedLock(key = "#id", leaseSeconds = 1)
        @Transactional
        public void placeAndOutliveTheLease(String id) {
            jdbc.update("insert into orders values (?)", id);
            LockHandle held = LockContext.current().orElseThrow();
            await().atMost(Duration.ofSeconds(5)).until(held::isLost);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        Orders orders(JdbcTemplate jdbc) {
            return new Orders(jdbc);
        }
    }
}
