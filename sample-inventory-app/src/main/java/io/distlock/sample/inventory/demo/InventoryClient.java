package io.distlock.sample.inventory.demo;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The inventory HTTP API as a client sees it. */
public final class InventoryClient {

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http;

    public InventoryClient(HttpClient http) {
        this.http = http;
    }

    /** An HTTP/1.1 client: plain-HTTP servers do not speak HTTP/2, and asking to upgrade each connection costs time. */
    public static HttpClient newHttpClient() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    /**
     * Places an order of {@code quantity} units.
     *
     * @param path {@code /orders} or {@code /unprotected/orders}
     * @return the HTTP status of the answer
     */
    public int order(URI instance, String path, String sku, int quantity) throws IOException, InterruptedException {
        String body = "{\"sku\":\"" + sku + "\",\"quantity\":" + quantity + "}";
        HttpRequest request = json(instance.resolve(path))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    public void setStock(URI instance, String sku, long quantity) throws IOException, InterruptedException {
        HttpRequest request = json(instance.resolve("/stock/" + sku))
                .PUT(HttpRequest.BodyPublishers.ofString("{\"quantity\":" + quantity + "}"))
                .build();
        expectOk(http.send(request, HttpResponse.BodyHandlers.ofString()));
    }

    public long stock(URI instance, String sku) throws IOException, InterruptedException {
        HttpRequest request = json(instance.resolve("/stock/" + sku)).GET().build();
        HttpResponse<String> response = expectOk(http.send(request, HttpResponse.BodyHandlers.ofString()));
        JsonNode stock = JSON.readTree(response.body()).get("stock");
        if (stock == null || !stock.canConvertToLong()) {
            throw new IOException("GET " + request.uri() + " answered without a stock: " + response.body());
        }
        return stock.asLong();
    }

    private static HttpRequest.Builder json(URI uri) {
        return HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT).header("Content-Type", "application/json");
    }

    private static HttpResponse<String> expectOk(HttpResponse<String> response) throws IOException {
        if (response.statusCode() != 200) {
            throw new IOException(response.request().method() + " "
                    + response.request().uri() + " answered " + response.statusCode() + ": " + response.body());
        }
        return response;
    }
}
