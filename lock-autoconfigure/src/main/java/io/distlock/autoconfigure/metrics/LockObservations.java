package io.distlock.autoconfigure.metrics;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observations distlock makes, and the names and keys of each, as the {@link DefaultLockObservationConvention}
 * gives them. With Spring Boot, whose meter handler makes a timer of every observation, they are also distlock's
 * acquisition and hold timers: one name for each fact, whether a tracer or a meter registry looks.
 */
public enum LockObservations implements ObservationDocumentation {

    /**
     * An acquisition, from the call to its end: acquired, not acquired within the wait, or failed. The current
     * observation on the acquiring thread meanwhile, so that work done to acquire nests under it.
     */
    ACQUIRE {
        @Override
        public String getName() {
            return "distlock.acquire";
        }

        @Override
        public String getContextualName() {
            return "distlock acquire";
        }
    },

    /**
     * A hold, from the grant to its release, its loss, or the collection of a handle nobody released. Never current:
     * a hold may end on another thread; its parent is the observation current where the lock was acquired.
     */
    HELD {
        @Override
        public String getName() {
            return "distlock.held";
        }

        @Override
        public String getContextualName() {
            return "distlock hold";
        }
    };

    @Override
    public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
        return DefaultLockObservationConvention.class;
    }

    @Override
    public KeyName[] getLowCardinalityKeyNames() {
        return LowCardinalityKeys.values();
    }

    @Override
    public KeyName[] getHighCardinalityKeyNames() {
        return HighCardinalityKeys.values();
    }

    /** Tags of both observations, and of the timers made of them: few values each. */
    public enum LowCardinalityKeys implements KeyName {
        /** The kind of lock: {@code exclusive}, {@code fair}, {@code path} or {@code read}. */
        KIND {
            @Override
            public String asString() {
                return "kind";
            }
        },
        /** The key's group ({@link LockKeyGroups}), never the key itself. */
        GROUP {
            @Override
            public String asString() {
                return "group";
            }
        },
        /**
         * How it ended: {@code acquired}, {@code not_acquired} or {@code error} for an acquisition; {@code released},
         * {@code lost} or {@code dropped} for a hold.
         */
        OUTCOME {
            @Override
            public String asString() {
                return "outcome";
            }
        }
    }

    /** Span attributes only: values without bound. */
    public enum HighCardinalityKeys implements KeyName {
        /** The key, with control characters escaped. */
        KEY {
            @Override
            public String asString() {
                return "distlock.key";
            }
        },
        /** A hold's fencing token. */
        FENCING_TOKEN {
            @Override
            public String asString() {
                return "distlock.fencing.token";
            }

            @Override
            public boolean isRequired() {
                return false;
            }
        },
        /** Why a hold was lost, for a lost hold. */
        LOST_REASON {
            @Override
            public String asString() {
                return "distlock.lost.reason";
            }

            @Override
            public boolean isRequired() {
                return false;
            }
        }
    }
}
