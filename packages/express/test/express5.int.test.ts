import express from 'express5'
import { describeExpressSessions } from './express-sessions-suite'
import { describeExpress } from './express-suite'

describeExpress(5, express)
describeExpressSessions(5, express)
