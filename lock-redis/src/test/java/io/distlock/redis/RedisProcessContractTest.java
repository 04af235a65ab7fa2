package io.distlock.redis;

import io.distlock.tck.process.ProcessContract;
import io.distlock.tck.process.ProcessLockFactory;
import io.distlock.test.redis.TestRedis;

/** {@link ProcessContract} on {@link RedisLock} over the shared standalone Redis. */
class RedisProcessContractTest extends ProcessContract {

    @Override
    protected Class<? extends ProcessLockFactory> lockFactory() {
        return RedisProcessLocks.class;
    }

    @Override
    protected String storeAddress() {
        return TestRedis.shared().uri();
    }
}
