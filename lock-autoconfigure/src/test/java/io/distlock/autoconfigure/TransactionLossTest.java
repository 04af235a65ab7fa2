package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.DistributedLock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostAfterCommitException;
import io.distlock.LockLostException;
import io.distlock.OnLockLost;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A lock lost while its work runs a transaction: found before the commit, the transaction rolls back; found only after
 * the commit, the caller learns that the work had committed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ExtendWith(OutputCaptureExtension.class)
class TransactionLossTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(Application.class)
            .withPropertyValues(
                    "distlock.backend=in-memory",
                    "spring.datasource.url=jdbc:h2:mem:tx-loss-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

    @Test
    void lockLostBeforeTheCommitRollsTheTransactionBack() {
        runner.run(context -> {
            Orders orders = prepare(context);

            assertThatThrownBy(() -> orders.placeAndOutliveTheLease("lost-before-commit"))
                    .isInstanceOf(LockLostException.class)
                    .isNotInstanceOf(LockLostAfterCommitException.class)
                    .hasMessageContaining("lost-before-commit");
            assertThat(rows(context)).as("orders committed").isZero();
        });
    }

    @Test
    void lockLostAfterTheCommitIsReportedAsLostAfterCommit() {
        runner.run(context -> {
            Orders orders = prepare(context);

            assertThatThrownBy(() -> orders.commitThenOutliveTheLease("lost-after-commit"))
                    .isInstanceOf(LockLostAfterCommitException.class)
                    .hasMessageContaining("already committed");
            assertThat(rows(context)).as("orders committed").isOne();
        });
    }

    @Test
    void lockLostBeforeTheCommitOfWorkThatOnlyLogsLossesCommitsAndWarns(CapturedOutput output) {
        runner.run(context -> {
            Orders orders = prepare(context);

            orders.placeOutliveTheLeaseAndOnlyLog("logged-loss");

            assertThat(rows(context)).as("orders committed").isOne();
            assertThat(output).contains("logged-loss", "already committed");
        });
    }

    @Test
    void lockKeptThroughTheTransactionCommitsAsUsual() {
        runner.run(context -> {
            Orders orders = prepare(context);

            orders.place("kept");

            assertThat(rows(context)).isOne();
        });
    }

    private static Orders prepare(ConfigurableApplicationContext context) {
        context.getBean(JdbcTemplate.class).execute("create table orders (id varchar(40) primary key)");
        return context.getBean(Orders.class);
    }

    private static int rows(ConfigurableApplicationContext context) {
        return context.getBean(JdbcTemplate.class).queryForObject("select count(*) from orders", Integer.class);
    }

    static class Orders {

        private final JdbcTemplate jdbc;
        private final TransactionTemplate transactions;

        Orders(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
            this.jdbc = jdbc;
            this.transactions = new TransactionTemplate(transactionManager);
        }

        @DistributedLock(key = "#id", leaseSeconds = 1)
        @Transactional
        public void placeAndOutliveTheLease(String id) {
            jdbc.update("insert into orders values (?)", id);
            awaitLoss();
        }

        @DistributedLock(key = "#id", leaseSeconds = 1)
        public void commitThenOutliveTheLease(String id) {
            transactions.executeWithoutResult(status -> jdbc.update("insert into orders values (?)", id));
            awaitLoss();
        }

        @DistributedLock(key = "#id", leaseSeconds = 1, onLost = OnLockLost.LOG)
        @Transactional
        public void placeOutliveTheLeaseAndOnlyLog(String id) {
            jdbc.update("insert into orders values (?)", id);
            awaitLoss();
        }

        @DistributedLock(key = "#id", leaseSeconds = 30)
        @Transactional
        public void place(String id) {
            jdbc.update("insert into orders values (?)", id);
        }

        private static void awaitLoss() {
            LockHandle held = LockContext.current().orElseThrow();
            await().atMost(Duration.ofSeconds(5)).until(held::isLost);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        Orders orders(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
            return new Orders(jdbc, transactionManager);
        }
    }
}
