package org.autodisk.node.wal;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Captures what {@link Recovery} logs at WARN while a test runs. */
final class RecoveryWarnings {

    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger recoveryLog = (Logger) LoggerFactory.getLogger(Recovery.class);

    void start() {
        logs.start();
        recoveryLog.addAppender(logs);
    }

    void stop() {
        recoveryLog.detachAppender(logs);
    }

    List<String> messages() {
        return logs.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage)
                .toList();
    }
}
