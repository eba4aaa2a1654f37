package org.autodisk.node.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.node.wire.LogRecord;
import org.autodisk.core.protocol.TraverseResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The behaviour every {@link LocalStore} implementation must have. */
abstract class LocalStoreContract {

    protected LocalStore store;

    protected abstract LocalStore open();

    @BeforeEach
    void setUp() {
        store = open();
    }

    @AfterEach
    void tearDown() {
        store.close();
    }

    private static byte[] k(String s) {
        return Keys.utf8(s);
    }

    @Test
    void putReportsCreateVersusReplaceAndCountsExactly() {
        assertThat(store.put(k("a"), k("1"))).isTrue();
        assertThat(store.put(k("a"), k("2"))).isFalse();
        assertThat(store.put(k("b"), new byte[0])).isTrue();
        assertThat(store.count()).isEqualTo(2);
        assertThat(store.get(k("a"))).isEqualTo(k("2"));
        assertThat(store.get(k("b"))).isEmpty();
        assertThat(store.get(k("c"))).isNull();
    }

    @Test
    void deleteReportsWhetherTheStreamExisted() {
        store.put(k("a"), k("1"));
        assertThat(store.delete(k("a"))).isTrue();
        assertThat(store.delete(k("a"))).isFalse();
        assertThat(store.count()).isZero();
        assertThat(store.get(k("a"))).isNull();
    }

    @Test
    void scanIsOrderedUnsignedBoundedAndLimited() {
        byte[][] keys = {{0x01}, {0x7f}, {(byte) 0x80}, {(byte) 0xff}, {(byte) 0xff, 0x00}};
        for (byte[] key : keys) {
            store.put(key, key);
        }
        TraverseResult all = store.scan(new byte[0], null, 100, Long.MAX_VALUE);
        assertThat(all.entries()).extracting(KeyValue::key).containsExactly(keys);
        assertThat(all.resumeKey()).isNull();
        TraverseResult mid = store.scan(new byte[] {0x7f}, new byte[] {(byte) 0xff}, 100, Long.MAX_VALUE);
        assertThat(mid.entries()).extracting(KeyValue::key).containsExactly(keys[1], keys[2]);
        assertThat(store.scan(new byte[0], null, 2, Long.MAX_VALUE).entries()).hasSize(2);
    }

    @Test
    void scanStopsAtTheByteBudgetAndSaysWhereToResume() {
        for (int i = 0; i < 10; i++) {
            store.put(k("k" + i), new byte[100]);
        }
        TraverseResult page = store.scan(new byte[0], null, 100, 250);
        assertThat(page.entries()).hasSize(3);
        assertThat(page.resumeKey()).isEqualTo(k("k3"));
        TraverseResult one = store.scan(new byte[0], null, 100, 1);
        assertThat(one.entries()).hasSize(1);
        List<KeyValue> rest = store.scan(page.resumeKey(), null, 100, Long.MAX_VALUE).entries();
        assertThat(rest).hasSize(7);
    }

    @Test
    void applyChangesDataAndRecordsTheAppliedLsn() {
        assertThat(store.appliedLsn()).isZero();
        assertThat(store.apply(new LogRecord(0, 1, 5, LogRecord.PUT, k("a"), k("1")))).isTrue();
        assertThat(store.apply(new LogRecord(0, 1, 6, LogRecord.PUT, k("a"), k("2")))).isFalse();
        assertThat(store.apply(new LogRecord(0, 1, 7, LogRecord.DELETE, k("b"), new byte[0]))).isFalse();
        assertThat(store.apply(new LogRecord(0, 1, 8, LogRecord.PUT, k("b"), k("3")))).isTrue();
        assertThat(store.apply(new LogRecord(0, 1, 9, LogRecord.DELETE, k("b"), new byte[0]))).isTrue();
        assertThat(store.get(k("a"))).isEqualTo(k("2"));
        assertThat(store.get(k("b"))).isNull();
        assertThat(store.count()).isEqualTo(1);
        assertThat(store.appliedLsn()).isEqualTo(9);
    }

    @Test
    void storedBytesAreNotAliasedWithTheCaller() {
        byte[] key = k("a");
        byte[] value = k("v");
        store.put(key, value);
        value[0] = 'x';
        key[0] = 'z';
        assertThat(store.get(k("a"))).isEqualTo(k("v"));
    }
}
