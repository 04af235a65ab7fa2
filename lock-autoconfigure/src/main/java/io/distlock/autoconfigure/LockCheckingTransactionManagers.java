package io.distlock.autoconfigure;

import io.distlock.LockedExecution;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.transaction.ConfigurableTransactionManager;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;

/**
 * Adds distlock's listener to every transaction manager of the application, the auto-configured ones and the
 * application's own. Just before a commit, the listener fails the commit if locked work on the committing thread has
 * lost its lock, so the transaction rolls back; after a commit, it records that the work committed, so that a loss
 * found later is reported as {@link io.distlock.LockLostAfterCommitException}.
 */
final class LockCheckingTransactionManagers implements BeanPostProcessor {

    private static final TransactionExecutionListener LISTENER = new TransactionExecutionListener() {

        @Override
        public void beforeCommit(TransactionExecution transaction) {
            // An exception here makes the transaction manager roll back instead of committing, and rethrow it.
            LockedExecution.checkBeforeCommit();
        }

        @Override
        public void afterCommit(TransactionExecution transaction, @Nullable Throwable commitFailure) {
            if (commitFailure == null) {
                LockedExecution.transactionCommitted();
            }
        }
    };

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof ConfigurableTransactionManager manager
                && !manager.getTransactionExecutionListeners().contains(LISTENER)) {
            manager.addListener(LISTENER);
        }
        return bean;
    }
}
