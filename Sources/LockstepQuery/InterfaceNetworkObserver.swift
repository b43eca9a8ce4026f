#if canImport(Network)
    import Dispatch
    import Network
    import Lockstep

    /// A network observer that follows the system's network path, and never sends traffic itself.
    ///
    /// On Apple platforms it watches an `NWPathMonitor`: a satisfied path is
    /// ``NetworkConnectionStatus/connected``, an unsatisfied one
    /// ``NetworkConnectionStatus/disconnected``, and one that requires a connection
    /// ``NetworkConnectionStatus/requiresConnection``.
    ///
    /// It starts watching the first time its status is read or it's subscribed to, and reports
    /// ``NetworkConnectionStatus/connected`` until the monitor delivers its first path, so that
    /// nothing waits on a status that isn't known yet.
    ///
    /// ```swift
    /// let network = InterfaceNetworkObserver.shared
    /// let subscription = network.subscribe { status in print("network:", status) }
    /// print(network.currentStatus)  // "connected" while the network is up
    /// subscription.cancel()
    /// ```
    public final class InterfaceNetworkObserver: NetworkObserver {
        /// The observer the library uses by default. It starts on first use.
        public static let shared = InterfaceNetworkObserver()

        private enum Phase {
            case idle
            case watching(NWPathMonitor)
            case stopped
        }

        private let phase = Lock(Phase.idle)
        private let status = ChangeBroadcaster(NetworkConnectionStatus.connected)
        private let queue = DispatchQueue(label: "LockstepQuery.InterfaceNetworkObserver")

        /// Creates an observer. It starts watching the first time it's used.
        public init() {}

        deinit {
            stop()
        }

        /// The network status now. Reading it starts the observer if it hasn't started.
        public var currentStatus: NetworkConnectionStatus {
            startIfNeeded()
            return status.state
        }

        /// Calls `handler` with each later change of the status, starting the observer if it
        /// hasn't started.
        public func subscribe(
            with handler: @escaping @Sendable (NetworkConnectionStatus) -> Void
        ) -> OperationSubscription {
            startIfNeeded()
            return status.subscribe(handler)
        }

        /// Stops watching the network. Afterwards the status stays what it last was and
        /// subscribers hear nothing more. Calling it again does nothing.
        public func stop() {
            phase.withLock { phase in
                if case .watching(let monitor) = phase {
                    monitor.cancel()
                }
                phase = .stopped
            }
        }

        private func startIfNeeded() {
            phase.withLock { phase in
                guard case .idle = phase else { return }
                let monitor = NWPathMonitor()
                let status = self.status
                monitor.pathUpdateHandler = { path in
                    let newStatus = Self.connectionStatus(of: path.status)
                    status.update { $0 = newStatus }
                }
                monitor.start(queue: queue)
                phase = .watching(monitor)
            }
        }

        private static func connectionStatus(of status: NWPath.Status) -> NetworkConnectionStatus {
            switch status {
            case .satisfied: .connected
            case .unsatisfied: .disconnected
            case .requiresConnection: .requiresConnection
            @unknown default: .disconnected
            }
        }
    }

#elseif os(Linux) && canImport(Glibc)
    import Dispatch
    import Glibc
    import Lockstep

    /// A network observer that reads the machine's network interfaces, and never sends traffic.
    ///
    /// On Linux the status is ``NetworkConnectionStatus/connected`` while at least one interface
    /// other than loopback is up, running, and has an IPv4 or IPv6 address that isn't link-local;
    /// otherwise it's ``NetworkConnectionStatus/disconnected``. The observer learns of changes
    /// from a netlink route socket, read on a background queue, and looks at the interfaces again
    /// on each message.
    ///
    /// It starts watching the first time its status is read or it's subscribed to. If the netlink
    /// socket can't be opened, the status is ``NetworkConnectionStatus/connected`` and
    /// subscribers are never notified, so that nothing waits forever on a change it can't hear
    /// about.
    ///
    /// ```swift
    /// let network = InterfaceNetworkObserver.shared
    /// let subscription = network.subscribe { status in print("network:", status) }
    /// print(network.currentStatus)  // "connected" while the network is up
    /// subscription.cancel()
    /// ```
    public final class InterfaceNetworkObserver: NetworkObserver {
        /// The observer the library uses by default. It starts on first use.
        public static let shared = InterfaceNetworkObserver()

        private enum Phase {
            case idle
            case watching(any DispatchSourceRead)
            case unavailable
            case stopped
        }

        private let phase = Lock(Phase.idle)
        private let status = ChangeBroadcaster(NetworkConnectionStatus.connected)
        private let queue = DispatchQueue(label: "LockstepQuery.InterfaceNetworkObserver")

        /// Creates an observer. It starts watching the first time it's used.
        public init() {}

        deinit {
            stop()
        }

        /// The network status now. Reading it starts the observer if it hasn't started.
        public var currentStatus: NetworkConnectionStatus {
            startIfNeeded()
            return status.state
        }

        /// Calls `handler` with each later change of the status, starting the observer if it
        /// hasn't started.
        public func subscribe(
            with handler: @escaping @Sendable (NetworkConnectionStatus) -> Void
        ) -> OperationSubscription {
            startIfNeeded()
            return status.subscribe(handler)
        }

        /// Stops watching the network and closes the socket. Afterwards the status stays what it
        /// last was and subscribers hear nothing more. Calling it again does nothing.
        public func stop() {
            phase.withLock { phase in
                if case .watching(let source) = phase {
                    // The source's cancel handler closes the socket once no event handler runs.
                    source.cancel()
                }
                phase = .stopped
            }
        }

        private func startIfNeeded() {
            phase.withLock { phase in
                guard case .idle = phase else { return }
                guard let socket = NetlinkRouteSocket.open() else {
                    phase = .unavailable
                    return
                }
                let source = DispatchSource.makeReadSource(fileDescriptor: socket, queue: queue)
                source.setEventHandler { [weak self] in
                    self?.readMessages(from: socket)
                }
                source.setCancelHandler {
                    _ = Glibc.close(socket)
                }
                phase = .watching(source)
                // Read after the socket is bound, so a change from here on sends a message. No
                // one is subscribed yet: subscribing waits for this lock before it subscribes.
                let initialStatus = Self.readInterfaceStatus()
                status.update { $0 = initialStatus }
                source.resume()
            }
        }

        /// Drains the socket, then looks at the interfaces again if anything arrived.
        private func readMessages(from socket: Int32) {
            var received = false
            var failed = false
            var buffer = [UInt8](repeating: 0, count: 16_384)
            reading: while true {
                let count = buffer.withUnsafeMutableBytes { bytes in
                    recv(socket, bytes.baseAddress, bytes.count, 0)
                }
                if count >= 0 {
                    received = true
                    continue
                }
                switch errno {
                case EINTR:
                    continue
                case ENOBUFS:
                    // The kernel dropped messages; looking at the interfaces again covers them.
                    received = true
                case EAGAIN, EWOULDBLOCK:
                    break reading
                default:
                    failed = true
                    break reading
                }
            }
            if received {
                let newStatus = Self.readInterfaceStatus()
                status.update { $0 = newStatus }
            }
            if failed {
                stop()
            }
        }

        /// The status from the machine's interfaces, or `.connected` if they can't be listed.
        static func readInterfaceStatus() -> NetworkConnectionStatus {
            var list: UnsafeMutablePointer<ifaddrs>?
            guard getifaddrs(&list) == 0 else { return .connected }
            defer { freeifaddrs(list) }
            var interfaces: [NetworkInterfaceDescription] = []
            var entry = list
            while let current = entry {
                let name = current.pointee.ifa_name.map { String(cString: $0) } ?? ""
                interfaces.append(
                    NetworkInterfaceDescription(
                        name: name,
                        flags: current.pointee.ifa_flags,
                        hasAddress: current.pointee.ifa_addr.map(Self.hasUsableAddress) ?? false
                    )
                )
                entry = current.pointee.ifa_next
            }
            return NetworkInterfaceRules.status(of: interfaces)
        }

        private static func hasUsableAddress(_ address: UnsafeMutablePointer<sockaddr>) -> Bool {
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                let bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) }
                }
                return NetworkInterfaceRules.isUsableAddress(bytes: bytes)
            case AF_INET6:
                let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) }
                }
                return NetworkInterfaceRules.isUsableAddress(bytes: bytes)
            default:
                return false
            }
        }
    }

    /// Opens the netlink socket that announces changes of links and addresses.
    enum NetlinkRouteSocket {
        // From <linux/netlink.h> and <linux/rtnetlink.h>, which Glibc's module doesn't import.
        static let netlinkRoute: Int32 = 0
        static let linkGroup: UInt32 = 0x1  // RTMGRP_LINK
        static let ipv4AddressGroup: UInt32 = 0x10  // RTMGRP_IPV4_IFADDR
        static let ipv6AddressGroup: UInt32 = 0x100  // RTMGRP_IPV6_IFADDR

        /// A bound, non-blocking socket, or `nil` if it can't be opened.
        static func open() -> Int32? {
            let type =
                Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
                | Int32(SOCK_NONBLOCK.rawValue)
            let socket = Glibc.socket(AF_NETLINK, type, netlinkRoute)
            guard socket >= 0 else { return nil }
            // struct sockaddr_nl: nl_family (u16), nl_pad (u16), nl_pid (u32), nl_groups (u32).
            // A zero nl_pid lets the kernel pick the port.
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { bytes in
                bytes.storeBytes(of: UInt16(AF_NETLINK), toByteOffset: 0, as: UInt16.self)
                bytes.storeBytes(
                    of: linkGroup | ipv4AddressGroup | ipv6AddressGroup,
                    toByteOffset: 8,
                    as: UInt32.self
                )
            }
            let result = withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socket, $0, socklen_t(12))
                }
            }
            guard result == 0 else {
                _ = Glibc.close(socket)
                return nil
            }
            return socket
        }
    }

#else
    /// A network observer for platforms where LockstepQuery can't watch the network.
    ///
    /// Its status is always ``NetworkConnectionStatus/connected`` and it never notifies.
    ///
    /// ```swift
    /// let network = InterfaceNetworkObserver.shared
    /// let subscription = network.subscribe { status in print("network:", status) }
    /// print(network.currentStatus)  // "connected" while the network is up
    /// subscription.cancel()
    /// ```
    public final class InterfaceNetworkObserver: NetworkObserver {
        /// The shared observer.
        public static let shared = InterfaceNetworkObserver()

        /// Creates an observer.
        public init() {}

        /// Always ``NetworkConnectionStatus/connected``.
        public var currentStatus: NetworkConnectionStatus { .connected }

        /// Returns a subscription that never calls `handler`.
        public func subscribe(
            with handler: @escaping @Sendable (NetworkConnectionStatus) -> Void
        ) -> OperationSubscription {
            .empty
        }

        /// Does nothing.
        public func stop() {}
    }
#endif

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
