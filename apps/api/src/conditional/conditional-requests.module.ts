import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { ETagInterceptor } from './etag.interceptor';

/** ETags and If-None-Match on the single resources that declare them (@Route's etag). */
@Module({ providers: [{ provide: APP_INTERCEPTOR, useClass: ETagInterceptor }] })
export class ConditionalRequestsModule {}
