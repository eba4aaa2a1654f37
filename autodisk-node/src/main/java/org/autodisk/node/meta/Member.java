package org.autodisk.node.meta;

/**
 * One member as the metadata records it.
 *
 * @param id      node id
 * @param role    {@code data} or {@code log}
 * @param address host:port it serves on
 * @param state   where it stands
 */
public record Member(String id, String role, String address, MemberState state) {

    /**
     * Returns this member in another state.
     *
     * @param next the state
     * @return the member
     */
    public Member in(MemberState next) {
        return new Member(id, role, address, next);
    }
}
