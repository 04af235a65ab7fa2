package io.distlock.kotlin

import io.distlock.DistributedLock
import io.distlock.annotation.DistributedLockDefinitionException
import io.distlock.autoconfigure.DistributedLockAnnotationAutoConfiguration
import io.distlock.autoconfigure.DistributedLockAutoConfiguration
import io.distlock.test.redis.TestRedis
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flowOf
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.springframework.boot.autoconfigure.AutoConfigurations
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration
import org.springframework.boot.test.context.runner.ApplicationContextRunner
import org.springframework.stereotype.Component
import java.util.concurrent.TimeUnit

/** What start-up refuses on Kotlin beans, since the lock could not follow the work. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CoroutineStartupTest {
    private val runner =
        ApplicationContextRunner()
            .withConfiguration(
                AutoConfigurations.of(
                    DataRedisAutoConfiguration::class.java,
                    AopAutoConfiguration::class.java,
                    DistributedLockAutoConfiguration::class.java,
                    DistributedLockAnnotationAutoConfiguration::class.java,
                ),
            ).withPropertyValues("spring.data.redis.port=" + TestRedis.shared().port())

    @Test
    fun plainFunctionReturningAFlowIsRefusedAtStartup() {
        runner.withUserConfiguration(PlainFlow::class.java).run { context ->
            assertThat(context).hasFailed()
            assertThat(context.startupFailure)
                .rootCause()
                .isInstanceOf(DistributedLockDefinitionException::class.java)
                .hasMessageContaining("PlainFlow.numbers(String)")
                .hasMessageContaining("kotlinx.coroutines.flow.Flow")
                .hasMessageContaining("suspend")
        }
    }

    @Test
    fun fallbackOnASuspendFunctionIsRefusedAtStartup() {
        runner.withUserConfiguration(SuspendWithFallback::class.java).run { context ->
            assertThat(context).hasFailed()
            assertThat(context.startupFailure)
                .rootCause()
                .isInstanceOf(DistributedLockDefinitionException::class.java)
                .hasMessageContaining("SuspendWithFallback.work(String, Continuation)")
                .hasMessageContaining("fallback and skipWhenBusy are not supported on a Kotlin suspend function")
        }
    }

    @Test
    fun skipWhenBusyOnASuspendFunctionIsRefusedAtStartup() {
        runner.withUserConfiguration(SuspendSkippingWhenBusy::class.java).run { context ->
            assertThat(context).hasFailed()
            assertThat(context.startupFailure)
                .rootCause()
                .isInstanceOf(DistributedLockDefinitionException::class.java)
                .hasMessageContaining("SuspendSkippingWhenBusy.work(String, Continuation)")
                .hasMessageContaining("fallback and skipWhenBusy are not supported on a Kotlin suspend function")
        }
    }

    @Component
    class PlainFlow {
        @DistributedLock(key = "'kt:' + #id")
        fun numbers(id: String): Flow<Int> = flowOf(1, 2)
    }

    @Component
    class SuspendWithFallback {
        @DistributedLock(key = "'kt:' + #id", fallback = "busy")
        suspend fun work(id: String): String = id

        suspend fun busy(id: String): String = "busy $id"
    }

    @Component
    class SuspendSkippingWhenBusy {
        @DistributedLock(key = "'kt:' + #id", skipWhenBusy = true)
        suspend fun work(id: String) {
        }
    }
}
