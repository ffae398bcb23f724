import { Global, Module } from '@nestjs/common';
import { ConfigModule as NestConfigModule } from '@nestjs/config';
import { allConfigs } from './configuration';
import { validateEnv } from './env.validation';

@Global()
@Module({
  imports: [
    NestConfigModule.forRoot({
      isGlobal: true,
      ignoreEnvFile: true,
      load: allConfigs,
      validate: (raw) => {
        validateEnv(raw);
        return raw;
      },
    }),
  ],
})
export class ConfigModule {}
