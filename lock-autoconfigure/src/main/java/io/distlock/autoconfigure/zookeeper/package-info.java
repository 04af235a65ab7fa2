/** The {@link io.distlock.Lock} bean on Apache ZooKeeper (lock-zookeeper). */
@NullMarked
package io.distlock.autoconfigure.zookeeper;

import org.jspecify.annotations.NullMarked;
