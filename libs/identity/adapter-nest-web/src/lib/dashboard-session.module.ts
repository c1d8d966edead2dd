import { ConfigurableModuleBuilder, Module } from '@nestjs/common';
import { DashboardSessionController } from './dashboard-session.controller';
import { DASHBOARD_SESSION_OPTIONS, type DashboardSessionOptions } from './dashboard-session.options';

export type { DashboardSessionOptions };

const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<DashboardSessionOptions>({ optionsInjectionToken: DASHBOARD_SESSION_OPTIONS }).setClassMethodName('forRoot').build();

/** The dashboard session's controllers (the app's route walk and scope table read them before any app starts). */
export const DASHBOARD_SESSION_CONTROLLERS = [DashboardSessionController];

/** `DashboardSessionModule.forRootAsync({ inject, useFactory })`: the app gives identity's use cases and its settings. */
@Module({ controllers: DASHBOARD_SESSION_CONTROLLERS })
export class DashboardSessionModule extends ConfigurableModuleClass {}
