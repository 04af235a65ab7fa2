/** Spring Boot auto-configuration of distlock and its {@code distlock.*} properties. */
@NullMarked
package io.distlock.autoconfigure;

import org.jspecify.annotations.NullMarked;
