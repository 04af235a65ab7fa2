/**
 * What distlock adds on Spring Boot 3.5 where Spring Boot 4 moved a type: the {@code distlock} health contributor on
 * Boot 3.5's health types ({@code org.springframework.boot.actuate.health}). On Spring Boot 4 nothing here is loaded;
 * lock-autoconfigure contributes the same there.
 */
@NullMarked
package io.distlock.autoconfigure.boot3;

import org.jspecify.annotations.NullMarked;
