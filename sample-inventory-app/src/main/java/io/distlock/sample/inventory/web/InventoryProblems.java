package io.distlock.sample.inventory.web;

import io.distlock.LockBackendException;
import io.distlock.LockNotAcquiredException;
import io.distlock.sample.inventory.stock.OutOfStockException;
import io.distlock.sample.inventory.stock.StaleWriteRejectedException;
import io.distlock.sample.inventory.stock.UnknownSkuException;
import java.net.URI;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.JacksonException;

/**
 * Turns every failure into an RFC 9457 problem detail ({@code application/problem+json}). Spring's own errors
 * (unreadable body, unknown path, wrong method) come from the base class; the sample's own have a {@code type} that
 * names them, so clients can tell "out of stock" from "stock is busy" without parsing text.
 */
@RestControllerAdvice
class InventoryProblems extends ResponseEntityExceptionHandler {

    /** Seconds a client should wait before retrying an order that found its SKU locked. */
    static final String RETRY_AFTER_SECONDS = "1";

    private static final Logger log = LoggerFactory.getLogger(InventoryProblems.class);

    static URI type(String name) {
        return URI.create("tag:distlock.io,2026:inventory:" + name);
    }

    @ExceptionHandler
    ProblemDetail invalidRequest(InvalidRequestException e) {
        return problem(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request", e.getMessage());
    }

    @ExceptionHandler
    ProblemDetail unknownSku(UnknownSkuException e) {
        ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "unknown-sku", "Unknown SKU", e.getMessage());
        problem.setProperty("sku", e.sku());
        return problem;
    }

    @ExceptionHandler
    ProblemDetail outOfStock(OutOfStockException e) {
        ProblemDetail problem = problem(HttpStatus.CONFLICT, "out-of-stock", "Out of stock", e.getMessage());
        problem.setProperty("sku", e.sku());
        problem.setProperty("available", e.available());
        problem.setProperty("requested", e.requested());
        return problem;
    }

    /** Other orders held the SKU's lock for the whole wait: a retry soon will most likely get through. */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> lockTimeout(LockNotAcquiredException e) {
        ProblemDetail problem = problem(
                HttpStatus.SERVICE_UNAVAILABLE,
                "lock-timeout",
                "Stock is busy",
                "The lock '" + e.key() + "' stayed held by another request for the whole "
                        + e.waited().toMillis() + " ms wait; nothing was changed. Retry after " + RETRY_AFTER_SECONDS
                        + " s.");
        problem.setProperty("lock", e.key());
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS)
                .body(problem);
    }

    /** This instance's lock expired mid-request and a newer holder took over; its write was refused. */
    @ExceptionHandler
    ProblemDetail staleWrite(StaleWriteRejectedException e) {
        log.warn("Fencing rejected a stale write: {}", e.getMessage());
        ProblemDetail problem = problem(
                HttpStatus.CONFLICT,
                "stale-write",
                "Stale write rejected",
                "This request's lock on '" + e.sku() + "' expired before it wrote, and a newer request took over; "
                        + "nothing was changed. Retry the request.");
        problem.setProperty("sku", e.sku());
        return problem;
    }

    @ExceptionHandler({LockBackendException.class, DataAccessException.class})
    ProblemDetail redisUnavailable(RuntimeException e) {
        log.warn("Redis could not be reached: {}", e.toString());
        return problem(
                HttpStatus.SERVICE_UNAVAILABLE,
                "redis-unavailable",
                "Redis unavailable",
                "The stock store could not be reached, so whether the request took effect is unknown; "
                        + "read the stock before retrying.");
    }

    /** Anything else is a bug; the client still gets a problem detail, without internals, and the log the details. */
    @ExceptionHandler
    ProblemDetail unexpected(Exception e) {
        log.error("Request failed unexpectedly", e);
        return problem(
                HttpStatus.INTERNAL_SERVER_ERROR,
                "internal-error",
                "Internal error",
                "The request failed unexpectedly; the service log has the details.");
    }

    /** Says what was wrong with the body, which the base class leaves out. */
    @Override
    protected @Nullable ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException e, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        String reason = e.getMostSpecificCause() instanceof JacksonException json
                ? json.getOriginalMessage()
                : "the request body is missing";
        ProblemDetail problem = problem(
                HttpStatus.BAD_REQUEST, "malformed-body", "Malformed request body", "Expected a JSON body: " + reason);
        return handleExceptionInternal(e, problem, headers, HttpStatus.BAD_REQUEST, request);
    }

    private static ProblemDetail problem(HttpStatus status, String type, String title, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(type(type));
        problem.setTitle(title);
        return problem;
    }
}
