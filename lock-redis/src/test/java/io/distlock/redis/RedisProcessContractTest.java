package io.distlock.redis;

import io.distlock.test.TestRedis;
import io.distlock.test.process.ProcessContract;
import io.distlock.test.process.ProcessLockFactory;

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
