package io.distlock.bench.report;

import java.util.List;

/** Markdown being written: lines, and tables whose rows may fill only some of their columns. */
final class MarkdownText {

    private final StringBuilder out = new StringBuilder();
    /** The columns of the table being written. */
    private int tableColumns;

    void line(String text) {
        out.append(text).append('\n');
    }

    void table(List<String> headers) {
        tableColumns = headers.size();
        row(headers.toArray(String[]::new));
        line("|" + " --- |".repeat(headers.size()));
    }

    void row(String... cells) {
        line("| " + String.join(" | ", cells) + " |");
    }

    /** How many columns the table being written has. */
    int tableColumns() {
        return tableColumns;
    }

    /** Text made safe for a table cell: one line, no column separators. */
    static String cell(String text) {
        return text.replace("|", "\\|").replace('\n', ' ');
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
