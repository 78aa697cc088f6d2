import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';

/** Up when every migration the code knows has been applied to the database. */
@Injectable()
export class MigrationsHealthIndicator {
  constructor(
    private readonly db: DataSource,
    private readonly health: HealthIndicatorService,
  ) {}

  async check(key: string) {
    const indicator = this.health.check(key);
    try {
      return (await this.db.showMigrations()) ? indicator.down('migrations are pending') : indicator.up();
    } catch {
      return indicator.down('cannot read the migrations table');
    }
  }
}
