package org.autodisk.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ErrorMappingTest extends FakeNodeTest {

    private static final String MESSAGE = "key is 1025 bytes: keys must be 1..1024 bytes";

    /** The exception type of every error status; a status missing here fails {@link #everyErrorStatusIsMapped}. */
    private static final Map<Status, Class<? extends AutoDiskException>> TYPES = Map.ofEntries(
            Map.entry(Status.INVALID_ARGUMENT, InvalidRequestException.class),
            Map.entry(Status.FRAME_TOO_LARGE, InvalidRequestException.class),
            Map.entry(Status.MALFORMED, InvalidRequestException.class),
            Map.entry(Status.UNKNOWN_OPCODE, InvalidRequestException.class),
            Map.entry(Status.HANDSHAKE_REQUIRED, InvalidRequestException.class),
            Map.entry(Status.NOT_PERMITTED, InvalidRequestException.class),
            Map.entry(Status.WRONG_ROLE, InvalidRequestException.class),
            Map.entry(Status.OVERLOADED, OverloadedException.class),
            Map.entry(Status.NODE_UNAVAILABLE, NodeUnavailableException.class),
            Map.entry(Status.SHUTTING_DOWN, NodeUnavailableException.class),
            Map.entry(Status.TIMEOUT, RequestTimeoutException.class),
            Map.entry(Status.UNSUPPORTED_VERSION, ProtocolVersionException.class),
            Map.entry(Status.HOP_LIMIT_EXCEEDED, RoutingException.class),
            Map.entry(Status.STALE_MAP, RoutingException.class),
            Map.entry(Status.REFUSED, RefusedException.class),
            Map.entry(Status.OUTCOME_UNKNOWN, OutcomeUnknownException.class),
            Map.entry(Status.RULE_FAILED, RuleFailedException.class),
            Map.entry(Status.FENCED, AutoDiskException.class),
            Map.entry(Status.INTERNAL_ERROR, AutoDiskException.class));

    /** Refusals the client sends again until this timeout: kept short. */
    @Override
    protected AutoDiskClient.Builder configure(AutoDiskClient.Builder builder) {
        return builder.requestTimeout(Duration.ofMillis(600));
    }

    static Stream<Arguments> statuses() {
        return Arrays.stream(Status.values()).filter(s -> s != Status.OK)
                .map(s -> Arguments.of(s, TYPES.get(s)));
    }

    @Test
    void everyErrorStatusIsMapped() {
        assertThat(TYPES.keySet()).containsExactlyInAnyOrderElementsOf(Arrays.stream(Status.values())
                .filter(s -> s != Status.OK).toList());
    }

    @ParameterizedTest
    @MethodSource("statuses")
    void blockingCallsThrowTheMatchingTypeWithTheNodesMessage(Status status, Class<? extends AutoDiskException> type) {
        node.answerWith(status, MESSAGE);

        assertThatThrownBy(() -> client.search("k"))
                .isExactlyInstanceOf(type)
                .hasMessage(MESSAGE)
                .satisfies(e -> {
                    assertThat(((AutoDiskException) e).status()).isEqualTo(status);
                    assertThat(((AutoDiskException) e).nodeId()).isEqualTo("node-1");
                });
    }

    @ParameterizedTest
    @MethodSource("statuses")
    void asyncFuturesFailWithTheBareException(Status status, Class<? extends AutoDiskException> type) {
        node.answerWith(status, MESSAGE);

        CompletableFuture<Throwable> seen = client.async().insert("k", "v").handle((ok, error) -> error);

        assertThat(seen.join()).isExactlyInstanceOf(type).hasMessage(MESSAGE);
    }

    @Test
    void aNodeErrorAfterWhichTheRequestMayHaveBeenCarriedOutIsNotSentAgain() {
        node.answerWith(Status.OUTCOME_UNKNOWN, "the writer stopped");

        assertThatThrownBy(() -> client.insert("k", "v")).isInstanceOf(OutcomeUnknownException.class);
        assertThat(node.count(Opcode.INSERT)).isEqualTo(1);
    }

    @Test
    void aRefusalBeforeAnythingWasDoneIsSentAgainUntilTheRequestTimeout() {
        node.answerWith(Status.OVERLOADED, "queue is full (queue.capacity = 1000)");

        assertThatThrownBy(() -> client.insert("k", "v")).isInstanceOf(OverloadedException.class);
        assertThat(node.count(Opcode.INSERT)).as("sent again after a wait, then given up").isGreaterThan(2);
    }

    @Test
    void aRequestRefusedWhileItsRangeFailsOverSucceedsOnceTheNodeServesIt() {
        node.answerWith(Status.NODE_UNAVAILABLE, "range 3 does not serve yet (recovering ledger 9); retry");
        CompletableFuture<Void> insert = client.async().insert("k", "v");
        await().atMost(Duration.ofSeconds(5)).until(() -> node.count(Opcode.INSERT) >= 2);
        node.answerWith(null, null);

        assertThat(insert).succeedsWithin(Duration.ofSeconds(5));
        assertThat(node.contents()).containsEntry("k", "v");
    }

    @Test
    void aRefusedRequestIsSentAgainWhileEveryThreadOfTheCommonPoolIsBlocked() throws InterruptedException {
        int workers = ForkJoinPool.getCommonPoolParallelism();
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(workers);
        Semaphore release = new Semaphore(0);
        for (int i = 0; i < workers; i++) {
            CompletableFuture.runAsync(() -> {
                started.countDown();
                release.acquireUninterruptibly();
            });
        }
        try {
            started.await();
            node.answerWith(Status.NODE_UNAVAILABLE, "range 3 does not serve yet (recovering ledger 9); retry");
            CompletableFuture<Void> insert = client.async().insert("k", "v");
            await().atMost(Duration.ofSeconds(5)).until(() -> node.count(Opcode.INSERT) >= 1);
            node.answerWith(null, null);

            assertThat(insert).as("the resend runs on the client's own thread").succeedsWithin(Duration.ofSeconds(5));
        } finally {
            release.release(workers);
        }
    }

    @Test
    void aRequestWaitingToBeSentAgainFailsWhenTheClientCloses() {
        node.answerWith(Status.NODE_UNAVAILABLE, "range 3 does not serve yet (recovering ledger 9); retry");
        AutoDiskClient patient = AutoDiskClient.builder().seeds(node.address()).requestTimeout(Duration.ofMinutes(5))
                .build();
        CompletableFuture<Void> insert = patient.async().insert("k", "v");
        await().atMost(Duration.ofSeconds(5)).until(() -> node.count(Opcode.INSERT) >= 3);
        patient.close();

        assertThatThrownBy(() -> insert.get(5, TimeUnit.SECONDS)).as("ended, not left waiting")
                .isInstanceOf(ExecutionException.class).hasRootCauseInstanceOf(NodeUnavailableException.class)
                .hasStackTraceContaining("the client is closed");
    }

    @Test
    void anErrorWithRequestIdZeroFailsEveryPendingRequest() {
        node.mode(FakeNode.Mode.GOODBYE);

        assertThatThrownBy(() -> client.search("k"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("garbage on the connection: closing it");
    }

    @Test
    void tracedErrorsAreReadWithOrWithoutATrailer() {
        node.answerWith(Status.OVERLOADED, "queue is full");
        CompletableFuture<Throwable> withTrailer = client.async().searchTraced(Keys.utf8("k")).handle((v, e) -> e);
        assertThat(withTrailer.join()).isInstanceOf(OverloadedException.class).hasMessage("queue is full");

        node.traceErrors(false);
        CompletableFuture<Throwable> without = client.async().searchTraced(Keys.utf8("k")).handle((v, e) -> e);
        assertThat(without.join()).isInstanceOf(OverloadedException.class).hasMessage("queue is full");
    }
}
