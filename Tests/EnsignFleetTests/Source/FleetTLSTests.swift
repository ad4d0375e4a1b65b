import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign
@testable import EnsignFleet

extension EtcdIntegrationTests {
    /// etcd as production runs it: TLS for clients with `--client-cert-auth`, a private
    /// authority made by the test with openssl.
    @Suite("The fleet over TLS")
    struct FleetTLSTests {
        @Test(
            "Over https with a client certificate, `ensign fleet set` writes and a running source gets the value live")
        func valuesArrive() throws {
            try EtcdTestBed.run(tls: true, prefix: "tls") { bed in
                #expect(bed.cluster.clientURLs.allSatisfy { $0.hasPrefix("https://") })
                let (context, _) = try bed.startSyncedApp()

                let flags = try bed.definitionsDirectory()
                let result = try EnsignProcess.run(
                    ["fleet", "set", "list.pageSize", "75", "--flags", flags] + bed.commandLineOptions)
                #expect(result.status == 0, "\(result.errors)")
                #expect(
                    waitUntil("the value over TLS", timeout: .seconds(10)) {
                        context.value(forKeyNamed: "list.pageSize") == 75
                    })
                #expect(!context.status.isDegraded)
                let listed = try EnsignProcess.run(["fleet", "list"] + bed.commandLineOptions)
                #expect(
                    listed.status == 0 && listed.output.contains("list.pageSize"), "\(listed.output) \(listed.errors)")
                // etcd agrees: the CLI's write is what etcdctl reads.
                #expect(
                    try bed.cluster.etcdctl(["get", bed.prefix + "list.pageSize", "--print-value-only"]).contains("75"))
            }
        }

        @Test(
            "No client certificate, or another authority trusted: exit 1 naming the certificate problem; a source reports it and keeps its values"
        )
        func refusals() throws {
            try EtcdTestBed.run(tls: true, prefix: "tls-refused") { bed in
                let (tls, prefix) = (bed.tls, bed.prefix)
                let endpoint = ["--etcd", bed.firstClientURL, "--prefix", prefix]

                let noCertificate = try EnsignProcess.run(
                    ["fleet", "list"] + endpoint + ["--cacert", tls.authority.certificate])
                #expect(noCertificate.status == 1, "\(noCertificate.errors)")
                #expect(noCertificate.errors.contains("client certificate"), "\(noCertificate.errors)")

                let other = try TestCertificateAuthority(in: bed.directory, name: "other")
                let untrusted = try EnsignProcess.run(
                    ["fleet", "list"] + endpoint + [
                        "--cacert", other.certificate, "--cert", tls.client.certificate, "--key", tls.client.key,
                    ])
                #expect(untrusted.status == 1, "\(untrusted.errors)")
                #expect(untrusted.errors.contains("certificate is not trusted"), "\(untrusted.errors)")

                // A client certificate the cluster's authority did not issue.
                let stranger = try other.issueClient(name: "stranger")
                let refusedClient = try EnsignProcess.run(
                    ["fleet", "list"] + endpoint + [
                        "--cacert", tls.authority.certificate, "--cert", stranger.certificate, "--key", stranger.key,
                    ])
                #expect(refusedClient.status == 1, "\(refusedClient.errors)")
                #expect(refusedClient.errors.contains("client certificate"), "\(refusedClient.errors)")

                let missing = try EnsignProcess.run(["fleet", "list"] + endpoint + ["--cert", tls.client.certificate])
                #expect(missing.status == 1 && missing.errors.contains("needs its key"), "\(missing.errors)")
                let plain = try EnsignProcess.run(
                    [
                        "fleet", "list", "--etcd", "http://127.0.0.1:1", "--prefix", prefix, "--cacert",
                        tls.authority.certificate,
                    ])
                #expect(plain.status == 1 && plain.errors.contains("every endpoint is http://"), "\(plain.errors)")

                // A source that cannot trust the members: its values stay the lower layers', and its
                // status names the problem.
                try bed.put("list.pageSize", "60")
                let context = try AppContext(definitions: bankDefinitions)
                let before = context.value(forKeyNamed: "list.pageSize")
                var configuration = bed.sourceConfiguration()
                configuration.caFile = other.certificate
                _ = try bed.startSource(for: context, configuration: configuration)
                #expect(
                    waitUntil("the status names the certificate", timeout: .seconds(10)) {
                        context.status.fleet?.lastError?.contains("not trusted") == true
                    })
                #expect(context.status.fleet?.isReachable == false)
                #expect(context.value(forKeyNamed: "list.pageSize") == before && before != 60)
            }
        }

        @Test(
            "TLS with client certificates and etcd's authentication: the app's read-only user reads live and cannot write; the operator's user writes"
        )
        func withAuthentication() throws {
            try EtcdTestBed.run(tls: true, prefix: "tls-auth") { bed in
                let prefix = bed.prefix
                for command in [
                    ["user", "add", "root:root-secret"], ["role", "add", "app-read"],
                    ["role", "grant-permission", "app-read", "--prefix=true", "read", prefix],
                    ["user", "add", "app:app-secret"], ["user", "grant-role", "app", "app-read"],
                    ["role", "add", "ops-write"],
                    ["role", "grant-permission", "ops-write", "--prefix=true", "readwrite", prefix],
                    ["user", "add", "ops:ops-secret"], ["user", "grant-role", "ops", "ops-write"], ["auth", "enable"],
                ] {
                    try bed.cluster.etcdctl(command)
                }

                let context = try AppContext(definitions: bankDefinitions)
                var configuration = bed.sourceConfiguration()
                configuration.credentials = EtcdCredentials(username: "app", password: "app-secret")
                let source = try bed.startSource(for: context, configuration: configuration)
                #expect(source.waitUntilSynced(timeout: .seconds(10)))

                let flags = try bed.definitionsDirectory()
                let set = { (user: String, password: String) in
                    try EnsignProcess.run(
                        ["fleet", "set", "list.pageSize", "75", "--flags", flags, "--user", user]
                            + bed.commandLineOptions,
                        environment: ["ENSIGN_ETCD_PASSWORD": password])
                }
                let refused = try set("app", "app-secret")
                #expect(refused.status == 1 && refused.errors.contains("permission denied"), "\(refused.errors)")
                let wrongPassword = try set("ops", "not-it")
                #expect(
                    wrongPassword.status == 1 && wrongPassword.errors.contains("authentication failed"),
                    "\(wrongPassword.errors)")
                let written = try set("ops", "ops-secret")
                #expect(written.status == 0, "\(written.errors)")
                #expect(
                    waitUntil("the value over TLS and auth", timeout: .seconds(10)) {
                        context.value(forKeyNamed: "list.pageSize") == 75
                    })
                #expect(!context.status.isDegraded)
            }
        }

        @Test("`ensign serve --etcd https://… --cacert --cert --key` serves the fleet's values and follows its writes")
        func serveJoinsOverTLS() throws {
            try EtcdTestBed.run(tls: true, prefix: "tls-serve") { bed in
                try bed.put("list.pageSize", "40")
                let flagsFile = try bed.directory.write("flags.yaml", ServeReplicaTests.flags)
                let server = try ServeProcess(
                    flags: flagsFile,
                    arguments: ["--etcd", bed.firstClientURL, "--etcd-prefix", bed.prefix] + bed.tls.commandLineOptions)
                defer { _ = server.stop() }
                let pageSize = { (value: Int) in #""key":"list.pageSize","reason":"STATIC","value":\#(value)"# }
                #expect(
                    waitUntil("the fleet's value in serve's answers", timeout: .seconds(20)) {
                        (try? Curl.bulk(port: server.port, body: ServeReplicaTests.bulkBody).body.contains(pageSize(40)))
                            == true
                    })
                try bed.put("list.pageSize", "45")
                #expect(
                    waitUntil("the write in serve's answers", timeout: .seconds(20)) {
                        (try? Curl.bulk(port: server.port, body: ServeReplicaTests.bulkBody).body.contains(pageSize(45)))
                            == true
                    })
            }
        }
    }
}
