package io.distlock.kotlin

import io.distlock.DistributedLock
import io.distlock.OnLockLost
import io.distlock.reactor.ReactiveLockContext
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.reactor.awaitSingle
import org.springframework.stereotype.Component

/** Suspend functions under `@DistributedLock`, all on the keys `kt:<id>`. */
@Component
class LockedWork {
    val occupancy = Occupancy()

    @DistributedLock(key = "'kt:' + #id", leaseSeconds = 30, waitSeconds = 10)
    suspend fun work(
        id: String,
        visit: Visit,
    ): String = occupancy.visit(id, visit) { "done $id" }

    @DistributedLock(key = "'kt:' + #id", leaseSeconds = 30, waitTime = "200ms")
    suspend fun tryWork(
        id: String,
        visit: Visit,
    ): String = occupancy.visit(id, visit) { "tried $id" }

    @DistributedLock(key = "'kt:' + #id", leaseSeconds = 1, waitSeconds = 10, onLost = OnLockLost.THROW)
    suspend fun underShortLease(
        id: String,
        visit: Visit,
    ): String = occupancy.visit(id, visit) { "outlived $id" }

    @DistributedLock(key = "'kt:' + #id", leaseSeconds = 30, waitSeconds = 10)
    suspend fun pause(id: String) {
        delay(200)
    }

    @DistributedLock(key = "'kt:' + #id", leaseSeconds = 30, waitSeconds = 10)
    suspend fun fail(
        id: String,
        visit: Visit,
    ): String = occupancy.visit(id, visit) { throw IllegalStateException("out of stock $id") }

    @DistributedLock(key = "'kt:' + #id", leaseSeconds = 30, waitSeconds = 10)
    suspend fun numbers(
        id: String,
        second: CompletableDeferred<Unit>,
    ): Flow<Int> =
        flow {
            emit(1)
            second.await()
            emit(2)
        }

    @DistributedLock(key = "'kt:' + #id", leaseSeconds = 30, waitTime = "200ms")
    suspend fun fencingToken(id: String): Long = ReactiveLockContext.current("kt:$id").awaitSingle().fencingToken()
}

/** Calls [LockedWork] on the same key from inside its own hold. */
@Component
class NestedWork(
    private val inner: LockedWork,
) {
    @DistributedLock(key = "'kt:' + #id", leaseSeconds = 30, waitSeconds = 10)
    suspend fun outerAndInner(id: String): List<Long> =
        listOf(ReactiveLockContext.current("kt:$id").awaitSingle().fencingToken(), inner.fencingToken(id))
}

/** The same body as [LockedWork.work] without the annotation: the control that shows the race the lock prevents. */
@Component
class UnlockedWork {
    val occupancy = Occupancy()

    suspend fun work(
        id: String,
        visit: Visit,
    ): String = occupancy.visit(id, visit) { "done $id" }
}
