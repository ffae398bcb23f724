import { Global, Module, OnApplicationBootstrap } from '@nestjs/common';
import { InjectConnection, MongooseModule } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { databaseConfig, DatabaseConfig } from '../config/configuration';
import { tenantGuardPlugin } from './tenant-guard.plugin';
import { CommandObserver } from './command-observer';
import { declaredIndexes } from './declared-indexes';
import { idFirstPlugin } from './id-first.plugin';
import { detectStoreProfile } from './store-profile';

@Global()
@Module({ providers: [CommandObserver], exports: [CommandObserver] })
export class CommandObserverModule {}

@Global()
@Module({
  imports: [
    CommandObserverModule,
    MongooseModule.forRootAsync({
      imports: [CommandObserverModule],
      inject: [databaseConfig.KEY, CommandObserver],
      useFactory: (db: DatabaseConfig, observer: CommandObserver) => ({
        uri: db.uri,
        // Indexes are ensured at start (Model.init) so a fresh database is ready before the first request.
        autoIndex: true,
        // A database that cannot be reached fails a request within ~3 s (→ 503 + Retry-After), instead
        // of mongoose buffering the command for 10 s and the driver waiting 30 s for a server.
        bufferCommands: false,
        serverSelectionTimeoutMS: 3000,
        connectTimeoutMS: 3000,
        retryAttempts: 3,
        retryDelay: 1000,
        monitorCommands: observer.enabled,
        connectionFactory: async (connection: Connection) => {
          // Mongoose captures a stack trace on every query only to word its "query was already
          // executed" error: ~1.5 % of an ingesting process's CPU (profiled), for a message.
          connection.base.set('skipOriginalStackTraces', true);
          connection.plugin(tenantGuardPlugin);
          connection.plugin(idFirstPlugin);
          observer.attach(connection);
          await detectStoreProfile(connection);
          return connection;
        },
      }),
    }),
  ],
  exports: [CommandObserverModule],
})
export class DatabaseModule implements OnApplicationBootstrap {
  constructor(
    @InjectConnection() private readonly connection: Connection,
    private readonly observer: CommandObserver,
  ) {}

  onApplicationBootstrap(): void {
    this.observer.recordIndexes(declaredIndexes(this.connection));
  }
}
