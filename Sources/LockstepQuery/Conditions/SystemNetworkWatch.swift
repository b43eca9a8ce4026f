// The platform part of `InterfaceNetworkObserver`: what watches the system's network, one type a
// platform, each with `start(onChange:onFailure:)` and `cancel()`.

#if canImport(Network)
    import Dispatch
    import Network

    /// Watches an `NWPathMonitor` for ``InterfaceNetworkObserver``.
    struct SystemNetworkWatch {
        private let monitor: NWPathMonitor

        /// Starts a monitor that reports each path's status to `onChange`, on a background queue.
        static func start(
            onChange: @escaping @Sendable (NetworkConnectionStatus) -> Void,
            onFailure: @escaping @Sendable () -> Void
        ) -> SystemNetworkWatch? {
            let monitor = NWPathMonitor()
            monitor.pathUpdateHandler = { path in
                onChange(connectionStatus(of: path.status))
            }
            monitor.start(queue: DispatchQueue(label: "LockstepQuery.InterfaceNetworkObserver"))
            return SystemNetworkWatch(monitor: monitor)
        }

        func cancel() {
            monitor.cancel()
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

    /// Watches a netlink route socket for ``InterfaceNetworkObserver``, and reads the machine's
    /// interfaces on each message.
    struct SystemNetworkWatch {
        private let source: any DispatchSourceRead

        /// Opens the socket, reports the interfaces' status now, then reports it again after each
        /// message; `nil` if the socket can't be opened. A read error calls `onFailure`.
        static func start(
            onChange: @escaping @Sendable (NetworkConnectionStatus) -> Void,
            onFailure: @escaping @Sendable () -> Void
        ) -> SystemNetworkWatch? {
            guard let socket = NetlinkRouteSocket.open() else { return nil }
            let queue = DispatchQueue(label: "LockstepQuery.InterfaceNetworkObserver")
            let source = DispatchSource.makeReadSource(fileDescriptor: socket, queue: queue)
            source.setEventHandler {
                switch drainMessages(from: socket) {
                case .nothing: break
                case .received: onChange(readInterfaceStatus())
                case .failed: onFailure()
                case .receivedThenFailed:
                    onChange(readInterfaceStatus())
                    onFailure()
                }
            }
            source.setCancelHandler {
                _ = Glibc.close(socket)
            }
            // Read after the socket is bound, so a change from here on sends a message.
            onChange(readInterfaceStatus())
            source.resume()
            return SystemNetworkWatch(source: source)
        }

        /// Cancels the source; its cancel handler closes the socket once no event handler runs.
        func cancel() {
            source.cancel()
        }

        private enum Drained {
            case nothing, received, failed, receivedThenFailed
        }

        /// Reads the socket until it's empty.
        private static func drainMessages(from socket: Int32) -> Drained {
            var received = false
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
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
                    return received ? .received : .nothing
                default:
                    return received ? .receivedThenFailed : .failed
                }
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
                        hasAddress: current.pointee.ifa_addr.map(hasUsableAddress) ?? false
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
    /// Where LockstepQuery can't watch the network: starting gives no watch, so the status stays
    /// ``NetworkConnectionStatus/connected`` and subscribers are never notified.
    struct SystemNetworkWatch {
        static func start(
            onChange: @escaping @Sendable (NetworkConnectionStatus) -> Void,
            onFailure: @escaping @Sendable () -> Void
        ) -> SystemNetworkWatch? {
            nil
        }

        func cancel() {}
    }
#endif
