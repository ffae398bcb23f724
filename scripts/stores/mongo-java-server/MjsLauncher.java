import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

/**
 * Runs de.bwaldvogel:mongo-java-server (memory backend) for MP_STORE=mongo-java-server.
 * Usage: java -cp "classes:lib/*" MjsLauncher --port N [--host 127.0.0.1]; blocks until killed.
 */
public class MjsLauncher {
    public static void main(String[] args) throws Exception {
        String host = "127.0.0.1";
        int port = 27017;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port": port = Integer.parseInt(args[++i]); break;
                case "--host": host = args[++i]; break;
                case "--backend": if (!"memory".equals(args[++i])) throw new IllegalArgumentException("only --backend memory"); break;
                default: System.err.println("unknown argument " + args[i]); System.exit(2);
            }
        }
        MemoryBackend backend = new MemoryBackend();
        MongoServer server = new MongoServer(backend);
        server.bind(host, port);
        System.out.printf("mongo-java-server listening on %s:%d%n", host, port);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdownNow();
            backend.close();
        }));
        Thread.currentThread().join();
    }
}
