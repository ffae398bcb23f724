import { Global, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { databaseConfig, DatabaseConfig } from '../config/configuration';
import { tenantGuardPlugin } from '../common/tenancy';

@Global()
@Module({
  imports: [
    MongooseModule.forRootAsync({
      inject: [databaseConfig.KEY],
      useFactory: (db: DatabaseConfig) => ({
        uri: db.uri,
        // Indexes are ensured at start (Model.init) so a fresh database is ready before the first request.
        autoIndex: true,
        serverSelectionTimeoutMS: 5000,
        retryAttempts: 3,
        retryDelay: 1000,
        connectionFactory: (connection: Connection) => {
          connection.plugin(tenantGuardPlugin);
          return connection;
        },
      }),
    }),
  ],
})
export class DatabaseModule {}
