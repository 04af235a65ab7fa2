package io.distlock.sample.inventory.web;

/** The answer of every successful stock change: how many units of the SKU are in stock now. */
public record StockLevel(String sku, long stock) {}
