/// What the observer needs to know about one entry of the machine's interface list.
///
/// An interface with several addresses has several entries, all with its name and flags.
struct NetworkInterfaceDescription: Sendable, Hashable {
    /// Flag bits, with the same values on Linux and Apple platforms.
    static let up: UInt32 = 0x1  // IFF_UP
    static let loopback: UInt32 = 0x8  // IFF_LOOPBACK
    static let running: UInt32 = 0x40  // IFF_RUNNING

    var name: String
    var flags: UInt32
    /// Whether the entry has a usable IPv4 or IPv6 address, as
    /// ``NetworkInterfaceRules/isUsableAddress(bytes:)`` decides.
    var hasAddress: Bool
}

/// The rules that turn the machine's interface list into a network status.
enum NetworkInterfaceRules {
    /// The status a set of interfaces gives: connected when some interface other than loopback is
    /// up and running and has a usable address in one of its entries.
    static func status(of interfaces: [NetworkInterfaceDescription]) -> NetworkConnectionStatus {
        let required = NetworkInterfaceDescription.up | NetworkInterfaceDescription.running
        var active = Set<String>()
        var addressed = Set<String>()
        let loopback = NetworkInterfaceDescription.loopback
        for interface in interfaces where interface.flags & loopback == 0 {
            if interface.flags & required == required {
                active.insert(interface.name)
            }
            if interface.hasAddress {
                addressed.insert(interface.name)
            }
        }
        return active.isDisjoint(with: addressed) ? .disconnected : .connected
    }

    /// Whether an IPv4 (4 bytes) or IPv6 (16 bytes) address, in network byte order, shows a
    /// network: not unspecified, not loopback, and not link-local (`169.254.0.0/16`, `fe80::/10`),
    /// which an interface gets without one.
    static func isUsableAddress(bytes: [UInt8]) -> Bool {
        switch bytes.count {
        case 4:
            if bytes.allSatisfy({ $0 == 0 }) { return false }
            if bytes[0] == 127 { return false }
            return !(bytes[0] == 169 && bytes[1] == 254)
        case 16:
            if bytes.allSatisfy({ $0 == 0 }) { return false }
            if bytes.dropLast().allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return false }
            return !(bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80)
        default:
            return false
        }
    }
}
