package io.distlock.annotation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.DistributedLock;
import kotlin.coroutines.Continuation;
import org.junit.jupiter.api.Test;

/**
 * Suspend functions as lock-core sees them: by their last parameter, a {@link Continuation}, as Kotlin compiles them.
 * These tests have Kotlin's standard library but not kotlinx-coroutines-reactor; the Kotlin module runs real ones.
 */
class SuspendingFunctionsTest {

    private final LockedMethods methods = new LockedMethods(null, LockDefaults.standard());

    @Test
    void suspendFunctionWithoutTheReactorBridgeIsRefusedNamingIt() {
        assertThatThrownBy(() -> methods.inspect(Suspending.class))
                .isInstanceOf(DistributedLockDefinitionException.class)
                .hasMessageContaining("Suspending.work(String, Continuation)")
                .hasMessageContaining("Kotlin suspend function")
                .hasMessageContaining("org.jetbrains.kotlinx:kotlinx-coroutines-reactor");
    }

    @Test
    void continuationBeforeTheLastParameterIsNoSuspendFunction() throws Exception {
        assertThat(methods.get(
                                NotSuspending.class.getMethod("work", Continuation.class, String.class),
                                NotSuspending.class)
                        .kind())
                .isEqualTo(ReturnKind.PLAIN);
    }

    static class Suspending {
        @DistributedLock(key = "#id")
        public Object work(String id, Continuation<? super String> completion) {
            return id;
        }
    }

    static class NotSuspending {
        @DistributedLock(key = "#id")
        public Object work(Continuation<? super String> completion, String id) {
            return id;
        }
    }
}
