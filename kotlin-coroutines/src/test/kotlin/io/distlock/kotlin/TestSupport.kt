package io.distlock.kotlin

import io.distlock.Lease
import io.distlock.Lock
import io.distlock.LockHandle
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import java.time.Duration
import kotlin.time.Duration.Companion.seconds

/** Runs a test's coroutine, failing it if it takes longer than any test here should. */
fun bounded(test: suspend CoroutineScope.() -> Unit) = runBlocking { withTimeout(30.seconds, test) }

/** Whether no one holds the key: takes it without waiting, and gives it back at once. */
fun Lock.isFree(key: String): Boolean {
    val probe = tryAcquire(key, Lease.fixed(Duration.ofSeconds(30)))
    probe.ifPresent(LockHandle::release)
    return probe.isPresent
}
