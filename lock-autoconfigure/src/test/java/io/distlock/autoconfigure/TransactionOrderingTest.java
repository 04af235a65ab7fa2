package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.DistributedLock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The lock encloses the transaction: callers of a {@code @DistributedLock @Transactional} method never read stock that
 * another caller has written but not yet committed. With the order reversed, they do, and updates are lost.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TransactionOrderingTest {

    private static final int CALLERS = 2;
    private static final int DEDUCTIONS_EACH = 5;
    private static final int INITIAL_STOCK = 100;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withPropertyValues(
                    "distlock.backend=in-memory",
                    "spring.datasource.url=jdbc:h2:mem:tx-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                    "distlock.default-wait=30s");

    @Test
    void lockIsTakenBeforeTheTransactionAndReleasedAfterTheCommit() {
        runner.withUserConfiguration(LockOutsideTransaction.class).run(context -> {
            List<Integer> seen = deductConcurrently(context);

            assertThat(seen).doesNotHaveDuplicates();
            assertThat(stock(context)).isEqualTo(INITIAL_STOCK - CALLERS * DEDUCTIONS_EACH);
        });
    }

    @Test
    void lockInsideTheTransactionLetsCallersReadStaleStock() {
        runner.withUserConfiguration(LockInsideTransaction.class).run(context -> {
            List<Integer> seen = deductConcurrently(context);

            assertThat(new HashSet<>(seen)).as("distinct stock values read").hasSizeLessThan(seen.size());
            assertThat(stock(context)).isGreaterThan(INITIAL_STOCK - CALLERS * DEDUCTIONS_EACH);
        });
    }

    private static List<Integer> deductConcurrently(ConfigurableApplicationContext context) throws Exception {
        JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
        jdbc.execute("create table stock (sku varchar(40) primary key, quantity int)");
        jdbc.update("insert into stock values ('apple', ?)", INITIAL_STOCK);
        Inventory inventory = context.getBean(Inventory.class);
        ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<List<Integer>>> results = new ArrayList<>();
            for (int c = 0; c < CALLERS; c++) {
                results.add(callers.submit(() -> {
                    start.await();
                    List<Integer> seen = new ArrayList<>();
                    for (int i = 0; i < DEDUCTIONS_EACH; i++) {
                        seen.add(inventory.deduct("apple"));
                    }
                    return seen;
                }));
            }
            start.countDown();
            List<Integer> seen = new ArrayList<>();
            for (Future<List<Integer>> result : results) {
                seen.addAll(result.get(50, TimeUnit.SECONDS));
            }
            return seen;
        } finally {
            callers.shutdownNow();
        }
    }

    private static int stock(ConfigurableApplicationContext context) {
        return context.getBean(JdbcTemplate.class)
                .queryForObject("select quantity from stock where sku = 'apple'", Integer.class);
    }

    /** Reads, then writes the stock back; commits slowly, so a caller that gets in before the commit reads old stock. */
    static class Inventory {

        private final JdbcTemplate jdbc;

        Inventory(JdbcTemplate jdbc) {
            this.jdbc = jdbc;
        }

        @DistributedLock(key = "'tx-stock:' + #sku")
        @Transactional
        public int deduct(String sku) {
            int quantity = jdbc.queryForObject("select quantity from stock where sku = ?", Integer.class, sku);
            jdbc.update("update stock set quantity = ? where sku = ?", quantity - 1, sku);
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void beforeCommit(boolean readOnly) {
                    sleep(150);
                }
            });
            return quantity;
        }

        private static void sleep(long millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class LockOutsideTransaction {

        @Bean
        Inventory inventory(JdbcTemplate jdbc) {
            return new Inventory(jdbc);
        }
    }

    /** Transactions ordered first: outside the lock, the wrong way round. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableTransactionManagement(order = 0)
    @Import(Inventory.class)
    static class LockInsideTransaction {}
}
